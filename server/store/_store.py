"""The Redis store: rooms, per-player games, room events and player tokens.

Theory of operation. Redis is the single source of truth; server processes keep only
caches and sockets. Rooms, game states and events are opaque bytes here (the server
encodes them). Every write that must be all-or-nothing is one Lua script: it checks
the expected version, writes, takes the room's next event seq (HINCRBY), appends the
event to the room stream under the explicit id `<seq>-0` and publishes it as
`<seq>\\n<event>`. A room's write version guards the room record; each player's game
has its own record and version, so players' moves never contend on one key. Script
calls made in the same event-loop iteration go to Redis in one pipeline (group
commit, see server.store._runner). Moves carry a client move id; a retried id
returns the stored result as `Duplicate` without applying anything.

Where each piece lives: server.store._keys. The scripts and the functions that
build their KEYS and ARGV by name: server.store._lua_room and _lua_player. The
pool of winnable deals: server.store._pool.

On a Redis Cluster (a ``redis+cluster://`` URL) the same verbs run through redis-py's
cluster client; see server.store._cluster for what differs.

Lifecycle: ``async with await Store.connect(url, prefix) as store: ...``, or
`close()` by hand. Closing is idempotent and safe to call from several tasks at
once; it waits at most `close_timeout_s` for writes in flight.

Errors: a refusal is a `StoreError` (`NotFound`, `VersionConflict`,
`AlreadyFinished`); Redis being unreachable, loading, read-only or out of memory is
`StoreUnavailable`, from every verb.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import cast

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff

from server.store import _lua_deadline, _lua_player, _lua_records, _lua_room
from server.store._accounts import StoreAccounts
from server.store._challenges import StoreChallenges
from server.store._cluster import (
    ClusterScriptRunner,
    Runner,
    cluster_client,
    is_cluster_url,
    nodes_in_turn,
)
from server.store._deadlines import StoreDeadlines
from server.store._edge import translated
from server.store._feed import Rejoined, RoomFeed, Sink
from server.store._lua import EventTarget
from server.store._pool import StorePool
from server.store._records import StoreRecords
from server.store._runner import ScriptRunner
from server.store._script import Call, Status, checked
from server.store._types import AlreadyFinished, CommitResult, Duplicate, MoveCommit
from server.store._wire import packing_in_c

POOL_WAIT_S = 10.0
"""How long a command waits for a free connection before it fails."""
TARGETS_KEPT = 8192
"""Rooms whose key names the store keeps between calls; past that it starts over.
Building the names anew (`RoomKeys.base` is a cached property, computed under a
lock on each new instance) cost a sizeable share of a move's CPU."""
SCRIPTS = (
    *_lua_room.SCRIPTS,
    *_lua_player.SCRIPTS,
    *_lua_deadline.SCRIPTS,
    *_lua_records.SCRIPTS,
)


class Store(StoreAccounts, StoreChallenges, StoreDeadlines, StorePool, StoreRecords):
    """The store speaks the domain; see the module doc for how it maps onto Redis."""

    def __init__(
        self,
        client: Redis | RedisCluster,
        prefix: str,
        *,
        group_commit: bool = True,
        stream_maxlen: int = 4096,
        close_timeout_s: float = 5.0,
    ) -> None:
        self._runner: Runner
        if isinstance(client, RedisCluster):
            # The verbs' plain commands are the same on redis-py's cluster client.
            super().__init__(cast(Redis, client), prefix, nodes_in_turn(client), all_nodes=True)
            self._runner = ClusterScriptRunner(client, group=group_commit)
        else:
            super().__init__(client, prefix)
            self._runner = ScriptRunner(client, group=group_commit)
        self._maxlen = stream_maxlen
        self._close_timeout_s = close_timeout_s
        self._feed: RoomFeed | None = None
        self._closing: asyncio.Task[None] | None = None
        self._targets: dict[str, EventTarget] = {}
        """Each room's key names (with this process's channel), kept between calls."""

    @classmethod
    @translated
    async def connect(
        cls,
        url: str,
        prefix: str = "solrace:",
        *,
        group_commit: bool = True,
        stream_maxlen: int = 4096,
        max_connections: int = 64,
        retries: int = 10,
        close_timeout_s: float = 5.0,
    ) -> Store:
        """Connect and load the scripts (which also checks that Redis answers).

        At most `max_connections` commands are in flight at once (per node on a
        cluster); more wait for a free connection (a burst of requests queues instead
        of failing). A lost connection is retried `retries` times with backoff (a
        Redis restart takes a few seconds) before `StoreUnavailable` reaches the caller.
        """
        client: Redis | RedisCluster
        if is_cluster_url(url):
            client = cluster_client(url, max_connections=max_connections, retries=retries)
            try:
                await client.initialize()
            except BaseException:
                await client.aclose()
                raise
        else:
            pool = BlockingConnectionPool.from_url(
                url,
                max_connections=max_connections,
                timeout=POOL_WAIT_S,
                retry=Retry(ExponentialWithJitterBackoff(cap=0.5, base=0.02), retries=retries),
                socket_connect_timeout=5,
            )
            pool.connection_class = packing_in_c(pool.connection_class)
            client = Redis.from_pool(pool)
        store = cls(
            client,
            prefix,
            group_commit=group_commit,
            stream_maxlen=stream_maxlen,
            close_timeout_s=close_timeout_s,
        )
        try:
            await store._runner.load(SCRIPTS)
        except BaseException:
            await client.aclose()
            raise
        return store

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the feed, let writes in flight finish (within the close timeout), disconnect.

        Every call, from any task, returns once the store is closed; later calls do
        nothing more.
        """
        if self._closing is None:
            self._closing = asyncio.create_task(self._shut())
        await asyncio.shield(self._closing)

    @property
    def closed(self) -> bool:
        """True once `close()` has finished."""
        return self._closing is not None and self._closing.done()

    async def _shut(self) -> None:
        try:
            async with asyncio.timeout(self._close_timeout_s):
                if self._feed is not None:
                    await self._feed.close()
                await self._runner.drain()
        except TimeoutError:
            await self._runner.cancel()
        await self._client.aclose()

    @property
    def round_trips(self) -> int:
        """Pipelines sent for script calls so far (group commit makes this < script_calls)."""
        return self._runner.round_trips

    @property
    def script_calls(self) -> int:
        """Script calls made so far."""
        return self._runner.calls

    def feed(self, sink: Sink, rejoined: Rejoined | None = None) -> RoomFeed:
        """The live feed of room events for this process, handed to `sink` in batches;
        call in a running event loop. `rejoined` is told of each room the feed
        subscribed to again after its connection was lost, once it has caught up.

        Events this store commits reach its feed directly; other processes' events
        come by pub/sub. There is one feed per store.
        """
        if self._feed is not None:
            raise RuntimeError("this store has a feed already")
        self._feed = RoomFeed(self, sink, rejoined)
        return self._feed

    # Rooms

    @translated
    async def create_room(self, code: str, room: bytes) -> bool:
        """Store a new room at version 0; False when the code is taken."""
        reply = await self._runner.run(_lua_room.create_room(self._keys(code), body=room))
        if Status(reply[0]) is not Status.OK:
            return False
        await self._client.sadd(self._names.rooms, code)
        return True

    @translated
    async def save_room(
        self,
        code: str,
        expected_version: int,
        room: bytes,
        events: Sequence[bytes] = (),
        *,
        deadline_ms: int | None = None,
    ) -> list[int]:
        """Replace the room, set its next deadline (None: none) and append its events.

        Returns the events' seqs. Raises VersionConflict when the room moved past
        `expected_version`, NotFound when there is no such room.
        """
        call = _lua_room.save_room(
            self._target(code),
            expected=expected_version,
            body=room,
            due_ms=deadline_ms,
            events=events,
        )
        return await self._write_events(code, call, events, skip=1)

    @translated
    async def start_race(
        self,
        code: str,
        expected_version: int,
        room: bytes,
        players: Mapping[int, bytes],
        events: Sequence[bytes] = (),
        *,
        start_at_ms: int,
        progress: int = 0,
        deadline_ms: int | None = None,
    ) -> list[int]:
        """Save the room and give each seat a fresh game record, in one step.

        `players` maps seat -> initial engine state; `progress` is the cards the deal
        already has on the foundations, reached at `start_at_ms`. Game records of
        seats not in it are dropped. `deadline_ms` as in `save_room`. Raises like
        `save_room`.
        """
        call = _lua_room.start_race(
            self._target(code),
            expected=expected_version,
            body=room,
            start_ms=start_at_ms,
            progress=progress,
            due_ms=deadline_ms,
            players=players,
            events=events,
        )
        return await self._write_events(code, call, events, skip=1)

    @translated
    async def expire_room(self, code: str, seconds: int | None) -> None:
        """Let every key of the room and its tokens live `seconds` more; None: keep them."""
        reply = await self._runner.run(_lua_room.expire_room(self._keys(code), seconds=seconds))
        pipe = self._client.pipeline(transaction=False)
        for token_hash in reply[1:]:
            token_key = self._token_key(token_hash.decode())
            if seconds is None:
                pipe.persist(token_key)
            else:
                pipe.expire(token_key, seconds)
        await pipe.execute()

    # Players

    @translated
    async def commit_move(self, move: MoveCommit) -> CommitResult | Duplicate:
        """Store a validated move with its event, or return the earlier result of its move id.

        Raises VersionConflict (the game moved past `move.expected_version`), AlreadyFinished
        (the player's race is over) or NotFound (no game record for the seat).
        """
        call = _lua_player.commit_move(self._target(move.code), move)
        reply = await self._runner.run(call)
        if reply[0] == Status.DUPLICATE:
            return Duplicate(int(reply[1]), int(reply[2]))
        seq, version = checked(reply)
        self._deliver_own(move.code, (int(seq),), (move.event,))
        return CommitResult(int(seq), int(version))

    @translated
    async def finish_player(
        self,
        code: str,
        seat: int,
        outcome: str,
        now_ms: int,
        events: Sequence[bytes] = (),
        *,
        expected_version: int | None = None,
    ) -> list[int] | None:
        """End a player's race without a move (resigned, timeout); returns the event seqs.

        None when the player had already finished (nothing is written then). With
        `expected_version`, raises VersionConflict if the player moved since. Raises
        NotFound when the seat has no game record.
        """
        call = _lua_player.finish_player(
            self._target(code),
            seat,
            outcome=outcome,
            now_ms=now_ms,
            expected=expected_version,
            events=events,
        )
        try:
            return await self._write_events(code, call, events, skip=0)
        except AlreadyFinished:
            return None

    # Helpers

    def _target(self, code: str) -> EventTarget:
        target = self._targets.get(code)
        if target is None:
            if len(self._targets) >= TARGETS_KEPT:
                self._targets.clear()
            keys = self._keys(code)
            target = EventTarget(keys, keys.channel(self.process), self._maxlen)
            self._targets[code] = target
        return target

    async def _write_events(
        self, code: str, call: Call, events: Sequence[bytes], *, skip: int
    ) -> list[int]:
        """Run an event-writing call; the seqs of its events follow `skip` other values."""
        reply = await self._runner.run(call)
        seqs = [int(seq) for seq in checked(reply)[skip:]]
        self._deliver_own(code, seqs, events)
        return seqs

    def _deliver_own(self, code: str, seqs: Sequence[int], events: Sequence[bytes]) -> None:
        """Hand the events just committed to this process's feed (no pub/sub echo)."""
        if self._feed is not None:
            for seq, body in zip(seqs, events, strict=True):
                self._feed.own(code, seq, body)
