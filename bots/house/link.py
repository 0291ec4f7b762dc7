"""One WebSocket of a house bot to the server: ``hello``, then messages in and out.

A link knows nothing of rooms: it frames messages with the protocol's codec.
`open_link` retries a server that cannot be reached with doubling waits (at
most `MAX_BACKOFF_S` apart) for `RECONNECT_FOR_S`, as a person's client does.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from protocol import (
    PROTOCOL_VERSION,
    ClientMessage,
    Error,
    ErrorCode,
    Hello,
    ProtocolError,
    ServerMessage,
    Welcome,
    decode_server,
    encode,
)
from protocol.limits import MAX_SERVER_FRAME

CLIENT_NAME = "solrace-house-bot"
CONNECT_TIMEOUT_S = 10.0
RECONNECT_FOR_S = 180.0
"""How long a dropped seat keeps trying to get back before it gives up."""
FIRST_BACKOFF_S = 0.25
MAX_BACKOFF_S = 5.0

Sleep = Callable[[float], Awaitable[None]]


class LinkFailed(Exception):
    """No usable connection: the server is unreachable, or refused the hello."""


class Link:
    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket

    async def send(self, message: ClientMessage) -> None:
        """Send one message; a link already closed drops it (the reader reconnects)."""
        try:
            await self.socket.send(encode(message))
        except ConnectionClosed:
            return

    async def recv(self) -> ServerMessage:
        """The next message; `ProtocolError` for a frame that cannot be read,
        `websockets.exceptions.ConnectionClosed` once the link is gone."""
        frame = await self.socket.recv()
        if isinstance(frame, str):
            raise ProtocolError(ErrorCode.PROTO_MALFORMED, "the server sent a text frame")
        return decode_server(frame)

    @property
    def close_code(self) -> int | None:
        return self.socket.close_code

    async def close(self) -> None:
        await self.socket.close()


async def open_once(url: str) -> Link:
    """Connect and agree on the protocol version; `LinkFailed` when that fails."""
    try:
        socket = await connect(
            url, compression=None, max_size=MAX_SERVER_FRAME, open_timeout=CONNECT_TIMEOUT_S
        )
    except (OSError, TimeoutError, InvalidURI, InvalidHandshake) as error:
        raise LinkFailed(f"cannot connect to {url}: {error}") from None
    link = Link(socket)
    try:
        async with asyncio.timeout(CONNECT_TIMEOUT_S):
            await link.send(Hello(id=0, version=PROTOCOL_VERSION, client=CLIENT_NAME))
            reply = await link.recv()
    except (ConnectionClosed, ProtocolError, TimeoutError) as error:
        await link.close()
        raise LinkFailed(f"no welcome from {url}: {error}") from None
    if not isinstance(reply, Welcome):
        await link.close()
        refused = f"{reply.code.value}: {reply.message}" if isinstance(reply, Error) else reply.type
        raise LinkFailed(f"the server refused the hello: {refused}")
    return link


async def open_link(
    url: str,
    first_delay_s: float = 0.0,
    sleep: Sleep = asyncio.sleep,
    *,
    clock: Callable[[], float] = time.monotonic,
    open_one: Callable[[str], Awaitable[Link]] = open_once,
) -> Link | None:
    """A connection, retried with backoff for `RECONNECT_FOR_S`; ``None`` if none came."""
    started, delay = clock(), first_delay_s
    while True:
        await sleep(delay)
        try:
            return await open_one(url)
        except LinkFailed:
            waited = clock() - started
            if waited >= RECONNECT_FOR_S:
                return None
            delay = min(MAX_BACKOFF_S, max(FIRST_BACKOFF_S, delay * 2))
