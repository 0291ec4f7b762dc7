"""Runs the store's Lua scripts by SHA, grouping concurrent calls into one round trip.

Group commit: a call queues itself and, if it is the first in the queue, schedules a
flush with `call_soon`, so every call made during the current event-loop iteration
rides in the same pipeline of EVALSHAs. Scripts are loaded once at connect; a
NOSCRIPT reply (the server restarted or flushed its script cache) means that call
did not run, so the runner loads the scripts again and resends only those calls.

A flush packs its EVALSHAs with hiredis and writes them on the runner's own
connection (`server.store._pipe.ReplyPipe`), which parses the replies as they arrive:
taking a connection from the pool, building redis-py's pipeline and reading each
reply through a stream reader cost more CPU than the round trip itself. It is opened
with the client's pool's settings (`server.store._link`) but is not one of the
pool's. Flushes in flight share the one connection, Redis answering them in order.

The common flush is no task: while the connection is up, the loop callback writes
the pipeline and the pipe's callback settles the callers' futures in the loop step
the replies came in, so a call costs no task and no extra loop turn of its own. A
flush with no connection up, a pipeline whose connection was lost before it was
answered, and calls to resend after NOSCRIPT go the slow way, in a task: it connects
(again) and retries a lost connection with the client's retry policy, as redis-py's
pipelines are retried.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError
from redis.typing import EncodableT

from server.store._pipe import ReplyPipe
from server.store._script import Call, Script
from server.store._types import StoreUnavailable
from server.store._wire import pack_batch


@dataclass
class Pending:
    """A script call waiting for its reply."""

    script: Script
    keys: Sequence[str]
    args: Sequence[EncodableT]
    future: asyncio.Future[Any]


class ScriptRunner:
    """Sends script calls, alone or grouped per loop iteration, and counts round trips."""

    def __init__(self, client: Redis, *, group: bool) -> None:
        self._client = client
        self._group = group
        self._queue: list[Pending] = []
        self._flushes: set[asyncio.Task[None]] = set()
        """Flushes going the slow way."""
        self._scheduled: asyncio.Handle | None = None
        self._sent: dict[int, list[Pending]] = {}
        """Pipelines written the quick way and not answered yet, by a number of their own."""
        self._batches = 0
        self._closing = False
        self._pipe: ReplyPipe | None = None
        self._opening = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        retry = client.connection_pool.connection_kwargs.get("retry")
        self._retry: Retry = retry if isinstance(retry, Retry) else Retry(NoBackoff(), 0)
        self.round_trips = 0
        self.calls = 0

    async def load(self, scripts: Iterable[Script]) -> None:
        """Load scripts into the server's cache in one round trip."""
        pipe = self._client.pipeline(transaction=False)
        for script in scripts:
            pipe.script_load(script.source)
        await pipe.execute()
        self.round_trips += 1

    async def run(self, script_call: Call) -> Any:
        """Run one script call and return its reply; server errors are raised."""
        script, keys, args = script_call
        loop = self._loop or self._bind_loop()
        call = Pending(script, keys, args, loop.create_future())
        self.calls += 1
        if not self._group:
            await self._send([call])
            return await call.future
        self._queue.append(call)
        if len(self._queue) == 1:
            self._scheduled = loop.call_soon(self._flush)
        return await call.future

    def _bind_loop(self) -> asyncio.AbstractEventLoop:
        """The event loop this runner serves, from its first call on: Python 3.11 makes a
        system call each time the running loop is asked for."""
        self._loop = asyncio.get_running_loop()
        return self._loop

    async def drain(self) -> None:
        """Wait for the flushes in flight, so no caller is left without a reply."""
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._flush()
        while self._flushes or self._sent:
            waiting = [call.future for calls in self._sent.values() for call in calls]
            await asyncio.wait([*self._flushes, *waiting])  # cancelled, it cancels none of them
        self._drop()

    async def cancel(self) -> None:
        """Stop the flushes in flight; their callers get `StoreUnavailable`."""
        self._closing = True
        if self._scheduled is not None:
            self._scheduled.cancel()
        self._drop()
        for task in self._flushes:
            task.cancel()
        await asyncio.gather(*self._flushes, return_exceptions=True)
        for calls in [self._queue, *self._sent.values()]:
            fail_calls(calls, closed_error())
        self._queue = []
        self._sent.clear()

    def _flush(self) -> None:
        """Write the calls queued during the last loop turn, or hand them to a task."""
        self._scheduled = None
        calls, self._queue = self._queue, []
        pipe = self._pipe
        if pipe is None or not pipe.alive:
            self._spawn(self._send(calls))
            return
        try:
            packed = pack_batch(_commands(calls))
        except Exception as error:  # an argument Redis cannot take
            fail_calls(calls, error)
            return
        self._batches += 1
        self._sent[self._batches] = calls
        pipe.send(packed, len(calls), functools.partial(self._answered, self._batches))
        self.round_trips += 1

    def _answered(self, batch: int, outcome: list[Any] | Exception) -> None:
        calls = self._sent.pop(batch, None)
        if calls is None:  # cancelled
            return
        if self._closing:
            fail_calls(calls, closed_error())
        elif isinstance(outcome, Exception):  # the connection failed before it answered
            self._spawn(self._send(calls))
        elif missing := settle_calls(calls, outcome, retry_missing=True):
            self._spawn(self._send(missing, reload=True))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._flushes.add(task)
        task.add_done_callback(self._flushes.discard)

    async def _send(self, calls: list[Pending], *, reload: bool = False) -> None:
        """Send `calls` the slow way; with `reload`, after loading their scripts again."""
        try:
            if reload:
                await self.load({call.script for call in calls})
            missing = await self._execute(calls, retry_missing=not reload)
            if missing:
                await self.load({call.script for call in missing})
                await self._execute(missing, retry_missing=False)
        except Exception as error:
            for call in calls:
                if not call.future.done():
                    call.future.set_exception(error)
        finally:
            for call in calls:
                if not call.future.done():
                    call.future.set_exception(closed_error())

    async def _execute(self, calls: list[Pending], *, retry_missing: bool) -> list[Pending]:
        """Send one pipeline; settle every call but those to retry after NOSCRIPT."""
        replies = await self._exchange(_commands(calls))
        self.round_trips += 1
        return settle_calls(calls, replies, retry_missing=retry_missing)

    async def _exchange(self, commands: list[tuple[EncodableT, ...]]) -> list[Any]:
        """Write `commands` in one go and read their replies (an error reply is returned)."""
        packed: list[bytes] | None = None

        async def attempt() -> list[Any]:
            nonlocal packed
            if packed is None:
                packed = pack_batch(commands)
            pipe = await self._connected()
            return await pipe.exchange(packed, len(commands))

        return await self._retry.call_with_retry(attempt, self._drop_dead)

    async def _connected(self) -> ReplyPipe:
        pipe = self._pipe
        if pipe is not None and pipe.alive:
            return pipe
        async with self._opening:
            if self._pipe is None or not self._pipe.alive:
                self._drop()
                self._pipe = await self._open()
            return self._pipe

    async def _open(self) -> ReplyPipe:
        """A new connection, opened with the client's pool's settings but tried once: the
        runner's retry policy, around the whole exchange, does the retrying."""
        return await ReplyPipe.open(self._client.connection_pool)

    async def _drop_dead(self, _error: Exception) -> None:
        """After a failed attempt: let go of the connection if it is lost (a flush that
        failed on an older connection leaves a newer one alone)."""
        if self._pipe is not None and not self._pipe.alive:
            self._drop()

    def _drop(self) -> None:
        """Close the runner's connection, if any."""
        pipe, self._pipe = self._pipe, None
        if pipe is not None:
            pipe.close()


def _commands(calls: list[Pending]) -> list[tuple[EncodableT, ...]]:
    return [("EVALSHA", call.script.sha, len(call.keys), *call.keys, *call.args) for call in calls]


def settle_calls(calls: list[Pending], replies: list[Any], *, retry_missing: bool) -> list[Pending]:
    """Give each call its reply, but those to send again after NOSCRIPT: returned."""
    missing: list[Pending] = []
    for call, reply in zip(calls, replies, strict=True):
        if isinstance(reply, NoScriptError) and retry_missing:
            missing.append(call)
        elif call.future.done():
            continue
        elif isinstance(reply, Exception):
            call.future.set_exception(reply)
        else:
            call.future.set_result(reply)
    return missing


def fail_calls(calls: list[Pending], error: Exception) -> None:
    for call in calls:
        if not call.future.done():
            call.future.set_exception(error)


def closed_error() -> StoreUnavailable:
    return StoreUnavailable("the store closed before Redis answered")
