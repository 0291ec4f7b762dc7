"""Tests of the full-screen client."""
