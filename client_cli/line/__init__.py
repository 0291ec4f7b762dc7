"""Line mode: typed lines in, room news and boards printed out."""
