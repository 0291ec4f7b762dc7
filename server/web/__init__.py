"""The spectator web page and its static files."""
