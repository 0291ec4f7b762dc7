"""A dropped connection being reopened, and what the player is told meanwhile."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from client_cli.link.connection import RECONNECT_FOR_S, Connection, reconnect
from client_cli.link.requests import what
from protocol import ClientMessage, Resume

STILL_DOWN_EVERY_S = 15.0
"""How often the player hears that the client is still trying."""


class Outage:
    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.active = False
        """The connection is down and being reopened."""
        self.retry_in_s = 0.0
        """The wait before the first attempt, as the server's ``going_away`` asked."""
        self.noticed_at_s = 0.0

    async def reopen(self, server: str, key: str | None = None) -> Connection | None:
        """A new connection (signed in with ``key``, if given), retrying for minutes;
        ``None`` if none came."""
        self.write("Connection lost. Reconnecting... Moves you type now are sent once it is back.")
        self.active, self.noticed_at_s = True, 0.0
        opening = functools.partial(Connection.open, key=key)
        try:
            return await reconnect(
                server, self.retry_in_s, on_retry=self._still_down, open_connection=opening
            )
        finally:
            self.active, self.retry_in_s = False, 0.0

    def give_up(self, waiting: Iterable[ClientMessage]) -> None:
        """Say that the client stops trying, and what it could not send."""
        minutes = RECONNECT_FOR_S / 60
        self.write(f"Could not reconnect for {minutes:g} minutes. Try later: solrace resume")
        for request in waiting:
            if not isinstance(request, Resume):
                self.write(f"Not sent: {what(request)}.")

    def _still_down(self, waited_s: float) -> None:
        if waited_s - self.noticed_at_s >= STILL_DOWN_EVERY_S:
            self.noticed_at_s = waited_s
            self.write(f"Still reconnecting after {waited_s:.0f} seconds...")
