"""What a record command works with: the server, the accounts file, the terminal.

A table or JSON goes to standard output, for people and scripts alike; what
went wrong goes to standard error (`Desk.warn`).
"""

from __future__ import annotations

import getpass
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path

from client_cli.session import accounts
from client_cli.session.accounts import KeptAccount, UnknownAccount
from client_cli.words.records import account_error
from protocol import Error, ServerMessage

Write = Callable[[str], None]
Ask = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Desk:
    """What a record command works with."""

    server: str
    path: Path
    """The accounts file."""
    chosen: str | None
    """``--account NAME``; ``None``: the account in use."""
    write: Write
    """Standard output: tables, JSON, what was done."""
    warn: Write
    """Standard error: what went wrong."""
    ask: Ask | None
    """Asks the person at the terminal; ``None`` when nobody is there to answer."""
    secret: Ask | None
    """Asks without showing what is typed (a key); without a terminal, reads a line of
    standard input (``echo KEY | solrace account import``)."""
    zone: tzinfo
    """Instants are shown in this time zone."""
    seats: Path | None = None
    """The directory of saved seats (``challenge create`` reads them); ``None``: none."""

    def account(self) -> KeptAccount:
        """The account the command is about: `UnknownAccount` when none is kept."""
        book = accounts.load(self.path)
        account = book.chosen(self.server, self.chosen)
        if account is None:
            raise UnknownAccount(
                f"no account is kept here for {self.server}: solrace account create NAME"
                " makes one (or solrace account import takes one from another machine)"
            )
        return account

    def refused(self, reply: ServerMessage) -> int:
        """Say that the server refused (or answered otherwise); exit status 1."""
        if isinstance(reply, Error):
            self.warn(account_error(reply))
        else:
            self.warn(f"The server answered with {reply.type!r}, which this client did not expect.")
        return 1


def terminal_desk(server: str, path: Path, chosen: str | None, seats: Path | None = None) -> Desk:
    """A desk on this process's terminal, in this machine's time zone."""
    interactive = sys.stdin.isatty()

    def warn(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    return Desk(
        server,
        path,
        chosen,
        lambda text: print(text, flush=True),
        warn,
        input if interactive else None,
        getpass.getpass if interactive else _line,
        datetime.now().astimezone().tzinfo or UTC,
        seats,
    )


def _line(prompt: str) -> str:
    """A line of standard input (no prompt: nobody is there to read it)."""
    return sys.stdin.readline()
