"""Tests of the terminal client: rendering, room tracking, arguments and whole sessions."""
