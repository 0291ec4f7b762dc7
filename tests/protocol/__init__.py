"""Tests of the wire protocol: round trips and decode errors."""
