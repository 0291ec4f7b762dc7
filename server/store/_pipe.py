"""One Redis connection whose replies are parsed as they arrive, for the script runner.

redis-py reads a pipeline's replies one by one through a stream reader, each read a
coroutine under a timeout; on the move path that costs more CPU than Redis spends
running the scripts. A `ReplyPipe` is an `asyncio.Protocol` on a connection of the
store's own (`server.store._link`: opened with the address, password, database and
TLS of the store's pool): it writes each batch of packed commands as it comes and
parses replies with a hiredis reader in `data_received`. Redis answers in order, so
the batches wait in a queue, and each batch's callback gets its replies in the loop
step its last reply came in (or, if the connection fails first, the error). Error
replies are among the replies, not raised, as redis-py's classes (`NoScriptError`
and the rest).
A pool made with a socket timeout (redis-py's default is 5 s) gives each batch that
long to be answered, as redis-py gives each read; past it the pipe is closed (the
late replies would be taken for the next batch's) and the batches waiting fail with
redis-py's `TimeoutError`. One timer watches the oldest batch, rather than one timeout
per batch: a timeout costs more CPU than the rest of the batch's trip.

When the connection is lost, every batch still waiting fails with redis-py's
`ConnectionError`, and so does any later `send`: the runner then opens another pipe
under its retry policy, as it would reconnect a redis-py connection.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.store._link import LinkSettings, new_reader, open_link, settings

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
    """Batches of commands out, their replies in, on a connection of its own."""

    def __init__(self, timeout_s: float | None) -> None:
        self._transport: asyncio.Transport | None = None
        self._reader = new_reader()
        self._waiting: deque[_Batch] = deque()
        self._lost: Exception | None = None
        self._timeout_s: float = timeout_s or math.inf
        self._watch: asyncio.TimerHandle | None = None
        self._loop = asyncio.get_running_loop()
        """Kept: Python 3.11 makes a system call each time the running loop is asked for."""

    @classmethod
    async def open(cls, pool: LinkSettings) -> ReplyPipe:
        """A pipe on a new connection to `pool`'s Redis, tried once; raises as `open_link`."""
        pipe = cls(settings(pool).socket_timeout)
        await open_link(pool, pipe)
        return pipe

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)

    def close(self) -> None:
        """Close the connection once what was written has gone out; waiting batches fail."""
        self._fail(RedisConnectionError("the store closed its connection"))
        if self._transport is not None:
            self._transport.close()

    @property
    def alive(self) -> bool:
        transport = self._transport
        return self._lost is None and transport is not None and not transport.is_closing()

    def send(self, packed: list[bytes], count: int, answered: Answered) -> None:
        """Write `packed` (`count` commands); `answered` gets their `count` replies."""
        transport = self._transport
        if transport is None or not self.alive:
            raise RedisConnectionError(f"the connection to Redis is closed ({self._lost})")
        loop = self._loop
        batch = _Batch(count, answered, loop.time() + self._timeout_s)
        self._waiting.append(batch)
        transport.writelines(packed)
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
        self._abort()

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        while (reply := self._reader.gets()) is not False:
            if not self._waiting:
                self._fail(RedisConnectionError("Redis sent a reply nothing asked for"))
                self._abort()
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

    def _abort(self) -> None:
        if self._transport is not None:
            self._transport.abort()

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
