"""Line mode (``--plain``): typed lines in, room news and boards printed out."""
