"""The feed's pub/sub connection, read by a protocol callback instead of a reader task.

The connection is the store's own (`server.store._link`: the address, TLS, password
and database of the store's pool), and `Listener` is its protocol: it parses what
Redis pushes with hiredis as the bytes arrive and calls back for each message. Every
published event of every watched room comes through here: read through redis-py's
stream reader, each would cost a wake-up of a reader task and several layers of
coroutines; here the bytes that arrive together are parsed and handed on in one call.
Subscribing is a write of the packed command; its confirmation comes back as a reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import cast

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError

from server.store._link import LinkSettings, open_link

OnReply = Callable[[bytes, bytes], None]
"""Called with the channel and the payload (``message``) or the channel (``subscribe``)."""


class Listener(asyncio.Protocol):
    def __init__(self, on_message: OnReply, on_subscribed: Callable[[bytes], None]) -> None:
        self._on_message, self._on_subscribed = on_message, on_subscribed
        self._parser = hiredis.Reader()
        self._transport: asyncio.WriteTransport | None = None
        self.lost: asyncio.Future[Exception] = asyncio.get_running_loop().create_future()
        """Done, with the error to raise, when the connection is gone or given up."""

    @classmethod
    async def open(
        cls, pool: LinkSettings, on_message: OnReply, on_subscribed: Callable[[bytes], None]
    ) -> Listener:
        """A listener on a new connection to `pool`'s Redis; raises as `open_link`."""
        listener = cls(on_message, on_subscribed)
        await open_link(pool, listener)
        return listener

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.WriteTransport, transport)

    def close(self) -> None:
        """Close the connection (once what was written has gone out)."""
        self.fail(RedisConnectionError("the pub/sub connection was closed"))
        if self._transport is not None:
            self._transport.close()

    def subscribe(self, *channels: bytes) -> None:
        self._write(("SUBSCRIBE", *channels))

    def unsubscribe(self, channel: bytes) -> None:
        self._write(("UNSUBSCRIBE", channel))

    def fail(self, error: Exception) -> None:
        """Give up on the connection (the feed connects again)."""
        if not self.lost.done():
            self.lost.set_result(error)

    def _write(self, command: tuple[str | bytes, ...]) -> None:
        if self._transport is None or self._transport.is_closing():
            raise RedisConnectionError("the pub/sub connection is gone")
        self._transport.write(hiredis.pack_command(command))  # type: ignore[arg-type]

    def data_received(self, data: bytes) -> None:
        self._parser.feed(data)
        while (reply := self._parser.gets()) is not False:
            if isinstance(reply, list) and len(reply) == 3:
                kind, channel, payload = reply
                if kind == b"message":
                    self._on_message(channel, payload)
                elif kind == b"subscribe":
                    self._on_subscribed(channel)
            elif isinstance(reply, hiredis.ReplyError):
                self.fail(RedisConnectionError(f"pub/sub connection: {reply}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.fail(RedisConnectionError(f"the pub/sub connection is gone: {exc}"))

    def eof_received(self) -> bool | None:
        self.fail(RedisConnectionError("Redis closed the pub/sub connection"))
        return None
