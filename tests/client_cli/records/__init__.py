"""Tests of the record commands."""
