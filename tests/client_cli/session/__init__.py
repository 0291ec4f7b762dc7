"""Tests of client_cli/session/."""
