"""Tests of the terminal client, in folders that mirror client_cli/."""
