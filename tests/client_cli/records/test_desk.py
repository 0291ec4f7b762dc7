"""A record command's desk on a process without a terminal: nobody to ask, keys read
from standard input, instants in the machine's zone."""

from __future__ import annotations

import io
import sys
from datetime import datetime
from pathlib import Path

import pytest

from client_cli.records.desk import terminal_desk


def test_without_a_terminal_nothing_is_asked_and_a_key_is_read_from_stdin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("the-key\nmore\n"))
    desk = terminal_desk("ws://h:1", Path("accounts.json"), "Ada")
    assert desk.ask is None and desk.secret is not None
    assert desk.secret("Account key: ").strip() == "the-key"
    assert (desk.server, desk.chosen) == ("ws://h:1", "Ada")
    assert datetime(2026, 1, 1, tzinfo=desk.zone).utcoffset() is not None
