"""Runs the store's Lua scripts by SHA, grouping concurrent calls into one round trip.

Group commit: a call queues itself and, if it is the first in the queue, schedules a
flush task. The task's first step runs on the next event-loop iteration, so every call
made during the current iteration rides in the same pipeline of EVALSHAs. Scripts are
loaded once at connect; a NOSCRIPT reply (the server restarted or flushed its script
cache) means that call did not run, so the runner loads the scripts again and resends
only those calls.

A flush writes its EVALSHAs on a connection of the client's pool and reads one reply
per call, without redis-py's pipeline object, and keeps up to `KEPT_CONNECTIONS`
connections between flushes instead of handing them back: taking a connection from
the pool and building a pipeline cost more CPU than the round trip itself. A
connection is kept only after every reply of its flush was read, so it never holds a
stale reply; on any failure it is disconnected and goes back to the pool. Lost
connections are retried with the client's retry policy, as redis-py's pipelines are.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import NoScriptError
from redis.typing import EncodableT

from server.store._script import Call, Script
from server.store._types import StoreUnavailable
from server.store._wire import PackedConnection

KEPT_CONNECTIONS = 4
"""Connections a runner keeps between flushes; flushes in flight beyond these take more."""


@dataclass
class _Call:
    script: Script
    keys: Sequence[str]
    args: Sequence[EncodableT]
    future: asyncio.Future[Any]


class ScriptRunner:
    """Sends script calls, alone or grouped per loop iteration, and counts round trips."""

    def __init__(self, client: Redis, *, group: bool) -> None:
        self._client = client
        self._group = group
        self._queue: list[_Call] = []
        self._flushes: set[asyncio.Task[None]] = set()
        self._kept: list[PackedConnection] = []
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
        call = _Call(script, keys, args, asyncio.get_running_loop().create_future())
        self.calls += 1
        if not self._group:
            await self._send([call])
            return await call.future
        self._queue.append(call)
        if len(self._queue) == 1:
            task = asyncio.create_task(self._flush())
            self._flushes.add(task)
            task.add_done_callback(self._flushes.discard)
        return await call.future

    async def drain(self) -> None:
        """Wait for the flushes in flight, so no caller is left without a reply."""
        while self._flushes:
            await asyncio.gather(*self._flushes)
        await self._give_back()

    async def cancel(self) -> None:
        """Stop the flushes in flight; their callers get `StoreUnavailable`."""
        for task in self._flushes:
            task.cancel()
        await asyncio.gather(*self._flushes, return_exceptions=True)
        for call in self._queue:
            if not call.future.done():
                call.future.set_exception(_closed())
        self._queue = []
        await self._give_back()

    async def _flush(self) -> None:
        calls, self._queue = self._queue, []
        await self._send(calls)

    async def _send(self, calls: list[_Call]) -> None:
        try:
            missing = await self._execute(calls, retry_missing=True)
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
                    call.future.set_exception(_closed())

    async def _execute(self, calls: list[_Call], *, retry_missing: bool) -> list[_Call]:
        """Send one pipeline; settle every call but those to retry after NOSCRIPT."""
        replies = await self._exchange(
            [("EVALSHA", call.script.sha, len(call.keys), *call.keys, *call.args) for call in calls]
        )
        self.round_trips += 1
        missing: list[_Call] = []
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

    async def _exchange(self, commands: list[tuple[EncodableT, ...]]) -> list[Any]:
        """Write `commands` in one go and read their replies (an error reply is returned)."""
        conn = self._kept.pop() if self._kept else await self._take()
        try:
            packed = conn.pack_batch(commands)
            replies = await conn.retry.call_with_retry(
                lambda: conn.exchange(packed, len(commands)),
                lambda _error: conn.disconnect(),
            )
        except BaseException:
            await conn.disconnect()
            await self._pool.release(conn)
            raise
        if len(self._kept) < KEPT_CONNECTIONS:
            self._kept.append(conn)
        else:
            await self._pool.release(conn)
        return replies

    async def _take(self) -> PackedConnection:
        conn = await self._pool.get_connection()
        if not isinstance(conn, PackedConnection):
            await self._pool.release(conn)
            raise TypeError("the store's pool must make connections with packing_in_c")
        return conn

    @property
    def _pool(self) -> Any:
        return self._client.connection_pool

    async def _give_back(self) -> None:
        """Hand the kept connections back to the pool (the store is closing)."""
        kept, self._kept = self._kept, []
        for conn in kept:
            await self._pool.release(conn)


def _closed() -> StoreUnavailable:
    return StoreUnavailable("the store closed before Redis answered")
