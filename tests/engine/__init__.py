"""Tests of the rules core."""
