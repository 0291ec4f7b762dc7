"""The client session behind the full-screen app: the same requests, resends and
reconnects as line mode, but each server message redraws the screen instead of
printing lines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from client_cli.session.session import Session, Write
from protocol import ClientMessage, ServerMessage

Changed = Callable[[ServerMessage, ClientMessage | None, list[str]], None]


class ScreenSession(Session):
    SUMMARISES_PROGRESS = False
    """The live panel shows every racer's progress."""

    def __init__(
        self, server: str, write: Write, changed: Changed, seats_dir: Path | None = None
    ) -> None:
        """``seats_dir``: the directory of saved seats (``None``: save none)."""
        super().__init__(server, write, seats_dir)
        self.changed = changed

    def show(self, message: ServerMessage, request: ClientMessage | None, lines: list[str]) -> None:
        """The tracker has taken the message in; the app redraws from it and keeps
        the first line of room news."""
        self.changed(message, request, lines)
