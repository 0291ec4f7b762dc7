"""Tests of client_cli/room/."""
