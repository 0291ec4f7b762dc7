"""Tests of client_cli/link/."""
