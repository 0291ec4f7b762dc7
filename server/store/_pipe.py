"""One Redis connection whose replies are parsed as they arrive, for the script runner.

redis-py reads a pipeline's replies one by one through a stream reader, each read a
coroutine under a timeout; on the move path that costs more CPU than Redis spends
running the scripts. A `ReplyPipe` takes over the transport of a connection redis-py
opened (so the URL's address, password, database and TLS are redis-py's business),
writes each batch of packed commands as it comes, and parses replies with a hiredis
reader in `data_received`. Redis answers in order, so the batches wait in a queue,
and each batch's callback gets its replies in the loop step its last reply came in
(or, if the connection fails first, the error). Error replies are among the
replies, not raised, as redis-py's classes (`NoScriptError` and the rest).
A connection made with a socket timeout (redis-py's default is 5 s) gives each batch
that long to be answered, as redis-py gives each read; past it the pipe is closed (the
late replies would be taken for the next batch's) and the batches waiting fail with
redis-py's `TimeoutError`. One timer watches the oldest batch, rather than one timeout
per batch: a timeout costs more CPU than the rest of the batch's trip.

The pipe owns the transport from then on: the redis-py connection it came from is
left unconnected, so closing it leaves the pipe alone. When the connection is lost,
every batch still waiting fails with redis-py's `ConnectionError`, and so does any
later `send`: the runner then opens another pipe under its retry policy, as it would
reconnect a redis-py connection.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import hiredis
from redis._parsers import BaseParser
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.typing import EncodableT

from server.store._wire import PackedConnection, closed_by_redis

_log = logging.getLogger(__name__)

Answered = Callable[[list[Any] | Exception], None]
"""Called once with a batch's replies, or with the error that ended the connection first."""


@dataclass
class _Batch:
    count: int
    answered: Answered
    due: float
    """Loop time by which its last reply should have come."""
    replies: list[Any] = field(default_factory=list)


class ReplyPipe(asyncio.Protocol):
    """Batches of commands out, their replies in, on the transport of `conn`."""

    def __init__(self, conn: PackedConnection, writer: asyncio.StreamWriter) -> None:
        self.conn = conn
        self._writer = writer
        """Kept to close: a stream writer collected while its transport is open closes it."""
        self._transport = writer.transport
        self._reader = hiredis.Reader(replyError=BaseParser.parse_error)
        self._waiting: deque[_Batch] = deque()
        self._lost: Exception | None = None
        self._timeout_s: float = conn.socket_timeout or math.inf
        self._watch: asyncio.TimerHandle | None = None
        self._loop = asyncio.get_running_loop()
        """Kept: Python 3.11 makes a system call each time the running loop is asked for."""

    @classmethod
    def take_over(cls, conn: PackedConnection) -> ReplyPipe:
        """The pipe of `conn`, just connected, with no reply pending. A connection Redis
        closed as it opened is closed here too, and refused: `conn` is taken either way."""
        writer = conn._writer  # redis-py keeps its stream writer there
        if writer is None or closed_by_redis(conn):
            if writer is not None:
                writer.close()
            conn._reader = conn._writer = None
            raise RedisConnectionError("the connection to Redis closed as it opened")
        pipe = cls(conn, writer)
        writer.transport.set_protocol(pipe)
        conn._reader = conn._writer = None  # the transport is the pipe's now
        return pipe

    def pack_batch(self, commands: list[tuple[EncodableT, ...]]) -> list[bytes]:
        return self.conn.pack_batch(commands)

    def close(self) -> None:
        """Close the connection once what was written has gone out; waiting batches fail."""
        self._fail(RedisConnectionError("the store closed its connection"))
        self._writer.close()

    @property
    def alive(self) -> bool:
        return self._lost is None and not self._transport.is_closing()

    def send(self, packed: list[bytes], count: int, answered: Answered) -> None:
        """Write `packed` (`count` commands); `answered` gets their `count` replies."""
        if not self.alive:
            raise RedisConnectionError(f"the connection to Redis is closed ({self._lost})")
        loop = self._loop
        batch = _Batch(count, answered, loop.time() + self._timeout_s)
        self._waiting.append(batch)
        self._transport.writelines(packed)
        if self._watch is None and self._timeout_s < math.inf:
            self._watch = loop.call_at(batch.due, self._check_due)

    async def exchange(self, packed: list[bytes], count: int) -> list[Any]:
        """`send`, awaited: the replies, or the connection's error raised."""
        future: asyncio.Future[list[Any]] = self._loop.create_future()
        self.send(packed, count, lambda outcome: _resolve(future, outcome))
        return await future

    def _check_due(self) -> None:
        """The oldest batch's time is up, unless it was answered: then watch the next."""
        self._watch = None
        if not self._waiting:
            return
        due = self._waiting[0].due
        loop = self._loop
        if loop.time() < due:
            self._watch = loop.call_at(due, self._check_due)
            return
        self._fail(RedisTimeoutError("Redis did not answer within the socket timeout"))
        self._transport.abort()

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        while (reply := self._reader.gets()) is not False:
            if not self._waiting:
                self._fail(RedisConnectionError("Redis sent a reply nothing asked for"))
                self._transport.abort()
                return
            batch = self._waiting[0]
            batch.replies.append(reply)
            if len(batch.replies) == batch.count:
                self._waiting.popleft()
                _tell(batch, batch.replies)

    def eof_received(self) -> bool:
        return False  # Redis closed its side: close ours too (`connection_lost` follows)

    def connection_lost(self, exc: Exception | None) -> None:
        cause = exc or "closed by Redis"
        self._fail(RedisConnectionError(f"lost the connection to Redis: {cause}"))

    def _fail(self, error: Exception) -> None:
        self._lost = self._lost or error
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        waiting, self._waiting = self._waiting, deque()
        for batch in waiting:
            _tell(batch, error)


def _tell(batch: _Batch, outcome: list[Any] | Exception) -> None:
    try:
        batch.answered(outcome)
    except Exception:
        _log.exception("handling the replies of a batch failed")


def _resolve(future: asyncio.Future[list[Any]], outcome: list[Any] | Exception) -> None:
    if future.done():
        return
    if isinstance(outcome, Exception):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)
