"""Requests outside a room: one connection, a request at a time, each waiting for its reply.

Accounts, history, profiles and leaderboards need no room, no resume and no
reconnect: a dropped connection or a silent server ends the command with
`ConnectFailed`, and the player runs it again.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from websockets.exceptions import ConnectionClosed

from client_cli.link.connection import ConnectFailed, Connection
from protocol import ClientMessage, DeadEnd, EventFrame, GoingAway, ServerMessage

REPLY_TIMEOUT_S = 30.0


class Asker:
    """Asks the server on one open connection (`asking` opens and closes it)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.ids = itertools.count(1)

    def next_id(self) -> int:
        return next(self.ids)

    async def ask(self, sent: ClientMessage) -> ServerMessage:
        """Send ``sent`` (its id from `next_id`); its reply, an ``error`` included.

        An error without an id (the server could not read the request, or too many
        requests) answers it too: nothing else is waiting."""
        try:
            async with asyncio.timeout(REPLY_TIMEOUT_S):
                await self.connection.send(sent)
                while True:
                    reply = await self.connection.recv()
                    if isinstance(reply, EventFrame | GoingAway | DeadEnd):
                        continue
                    if reply.id in (sent.id, None):
                        return reply
        except ConnectionClosed:
            raise ConnectFailed("the server closed the connection before it answered") from None
        except TimeoutError:
            raise ConnectFailed(f"no answer from the server in {REPLY_TIMEOUT_S:g} s") from None


@asynccontextmanager
async def asking(url: str, key: str | None = None) -> AsyncIterator[Asker]:
    """A connection to ask on, signed in with ``key`` when given (see
    `Connection.refusal`); `ConnectFailed` when there is none."""
    connection = await Connection.open(url, key=key)
    try:
        yield Asker(connection)
    finally:
        await connection.close()
