"""The feed's pub/sub connection, read by a protocol callback instead of a reader task.

redis-py opens the connection (address, TLS, password, database, as for the store's
other connections); then its transport is handed to `Listener`, which parses what
Redis pushes with hiredis as the bytes arrive and calls back for each message. Every
published event of every watched room comes through here: read through redis-py's
stream reader, each would cost a wake-up of a reader task and several layers of
coroutines; here the bytes that arrive together are parsed and handed on in one call.
Subscribing is a write of the packed command; its confirmation comes back as a reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import hiredis
from redis.asyncio.client import PubSub
from redis.exceptions import ConnectionError as RedisConnectionError

from server.store._wire import closed_by_redis

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
        cls, pubsub: PubSub, on_message: OnReply, on_subscribed: Callable[[bytes], None]
    ) -> Listener:
        """Connect `pubsub` and take its transport over; no reply is pending on it yet.

        The pool may hand out a connection Redis has closed while it sat idle (Redis
        restarted, or the network dropped it): its end of file was read, but nothing
        has tried it since. Taken over as it is, it would never hear a thing, so it is
        opened again first.
        """
        await pubsub.connect()  # type: ignore[no-untyped-call]
        connection = pubsub.connection
        if connection is None:
            raise RedisConnectionError("the pub/sub connection did not open")
        if closed_by_redis(connection):
            await connection.disconnect()
            await connection.connect()
        writer = connection._writer
        if writer is None or closed_by_redis(connection):
            raise RedisConnectionError("the pub/sub connection did not open")
        listener = cls(on_message, on_subscribed)
        transport = writer.transport
        transport.set_protocol(listener)
        listener._transport = transport
        return listener

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
