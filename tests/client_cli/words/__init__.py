"""Tests of client_cli/words/."""
