"""Tests of client_cli/bots/."""
