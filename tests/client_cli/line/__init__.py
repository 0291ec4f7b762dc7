"""Tests of client_cli/line/."""
