"""The store on a Redis Cluster: the URL, the client, and how script calls reach the masters.

A ``redis+cluster://host:port`` URL (``rediss+cluster://`` for TLS) names any one
node; redis-py's cluster client (`redis.asyncio.cluster.RedisCluster`) finds the
rest, follows MOVED and ASK, and finds the new master after a failover. The key
layout puts each script's keys on one slot (server.store._keys), so every script
call goes to the one master that owns its slot.

`ClusterScriptRunner` is the cluster's `ScriptRunner`: it groups the calls made in
one event-loop iteration, as the single-node runner does, and sends them as one
redis-py cluster pipeline, which splits them by master and writes to each master
at once. It uses redis-py's own connections and reply reading, not the store's
faster pipe of server.store._pipe, at several times the client CPU per move
(docs/performance.md). A NOSCRIPT reply (a replica promoted after the scripts were
loaded, or a flushed cache) loads the scripts on every master again and resends
those calls.

Room events: the scripts PUBLISH them, and a cluster forwards every PUBLISH to
every node, so the feed may subscribe on any node (`nodes_in_turn` picks the next
on each connect, so a lost node is left behind). Sharded pub/sub (SPUBLISH,
SSUBSCRIBE) would keep an event on its slot's master and replicas instead; the
cost of the broadcast is the cluster bus carrying each event to every node.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from itertools import count
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff

from server.store._link import LinkSettings
from server.store._runner import Pending, ScriptRunner, closed_error, fail_calls, settle_calls
from server.store._script import Call, Script

SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
"""Cluster URL schemes and the scheme redis-py's cluster client takes for each."""


def is_cluster_url(url: str) -> bool:
    scheme, _, _ = url.partition("://")
    return scheme in SCHEMES


def cluster_client(url: str, *, max_connections: int, retries: int) -> RedisCluster:
    """redis-py's cluster client for a cluster URL: at most `max_connections` per node."""
    scheme, _, rest = url.partition("://")
    return RedisCluster.from_url(
        f"{SCHEMES[scheme]}://{rest}",
        max_connections=max_connections,
        retry=Retry(ExponentialWithJitterBackoff(cap=0.5, base=0.02), retries=retries),
        socket_connect_timeout=5,
    )


def nodes_in_turn(client: RedisCluster) -> Callable[[], LinkSettings]:
    """Each call, the next node the client knows of (it learns them as it connects)."""
    turns = count()

    def next_node() -> LinkSettings:
        nodes = client.get_nodes()
        return nodes[next(turns) % len(nodes)]

    return next_node


class ClusterScriptRunner:
    """Sends script calls to the masters, grouped per loop iteration, and counts round trips
    (one per grouped pipeline, however many masters it reaches)."""

    def __init__(self, client: RedisCluster, *, group: bool) -> None:
        self._client = client
        self._group = group
        self._queue: list[Pending] = []
        self._scheduled: asyncio.Handle | None = None
        self._sends: set[asyncio.Task[None]] = set()
        self.round_trips = 0
        self.calls = 0

    async def load(self, scripts: Iterable[Script]) -> None:
        """Load scripts into every master's cache."""
        await asyncio.gather(*(self._client.script_load(script.source) for script in scripts))
        self.round_trips += 1

    async def run(self, script_call: Call) -> Any:
        """Run one script call and return its reply; server errors are raised."""
        script, keys, args = script_call
        loop = asyncio.get_running_loop()
        call = Pending(script, keys, args, loop.create_future())
        self.calls += 1
        if not self._group:
            self._spawn([call])
        else:
            self._queue.append(call)
            if len(self._queue) == 1:
                self._scheduled = loop.call_soon(self._flush)
        return await call.future

    async def drain(self) -> None:
        """Wait for the calls in flight, so no caller is left without a reply."""
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._flush()
        while self._sends:
            await asyncio.wait(set(self._sends))

    async def cancel(self) -> None:
        """Stop the calls in flight; their callers get `StoreUnavailable`."""
        if self._scheduled is not None:
            self._scheduled.cancel()
        fail_calls(self._queue, closed_error())
        self._queue = []
        for task in self._sends:
            task.cancel()
        await asyncio.gather(*self._sends, return_exceptions=True)

    def _flush(self) -> None:
        self._scheduled = None
        calls, self._queue = self._queue, []
        if calls:
            self._spawn(calls)

    def _spawn(self, calls: list[Pending]) -> None:
        task = asyncio.create_task(self._send(calls))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    async def _send(self, calls: list[Pending]) -> None:
        try:
            missing = await self._execute(calls, retry_missing=True)
            if missing:
                await self.load({call.script for call in missing})
                await self._execute(missing, retry_missing=False)
        except Exception as error:
            fail_calls(calls, error)
        finally:
            fail_calls(calls, closed_error())

    async def _execute(self, calls: list[Pending], *, retry_missing: bool) -> list[Pending]:
        """One cluster pipeline; settle every call but those to retry after NOSCRIPT."""
        pipe = self._client.pipeline()
        for call in calls:
            pipe.execute_command("EVALSHA", call.script.sha, len(call.keys), *call.keys, *call.args)
        replies = await pipe.execute(raise_on_error=False)
        self.round_trips += 1
        return settle_calls(calls, replies, retry_missing=retry_missing)


Runner = ScriptRunner | ClusterScriptRunner
"""The store's script runner: one Redis's, or a cluster's."""
