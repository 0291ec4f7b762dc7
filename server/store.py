"""The Redis store: rooms, per-player games, room events and player tokens.

Theory of operation. Redis is the single source of truth; server processes keep only
caches and sockets. Rooms, game states and events are opaque bytes here (the server
encodes them). Every write that must be all-or-nothing is one Lua script: it checks
the expected version, writes, takes the room's next event seq (HINCRBY), appends the
event to the room stream under the explicit id `<seq>-0` and publishes it as
`<seq>\\n<event>`. A room's write version guards the room record; each player's game
has its own record and version, so players' moves never contend on one key. Script
calls made in the same event-loop iteration go to Redis in one pipeline (group
commit, see `server._store_scripts`). Moves carry a client move id; a retried id
returns the stored result as `Duplicate` without applying anything.

Where each piece lives: see `RoomKeys` in server._store_types.

API: `Store.connect(url, prefix)` / `close()`. Rooms: `create_room`, `load_room`,
`save_room` (room + events, guarded by the room version), `start_race` (room + a fresh
game per seat), `expire_room`, `room_count`. Games: `load_player`, `commit_move`
(guarded by the player's version, idempotent per move id), `finish_player` (resign,
timeout), `move_log`. Events: `events_since` (replay for a resuming client, or None:
send a snapshot), `feed()` (live events of the rooms this process serves, across
processes and Redis restarts; see server._store_feed). Tokens: `bind_token`,
`find_token`, `unbind_token`, keyed by the token's SHA-256, never the token.

Expiry: `expire_room` gives every key of a room (and its tokens) one time to live,
or takes it away again when a finished room comes back into use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgpack
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.typing import EncodableT

from server import _lua
from server._lua import Status
from server._store_feed import RoomEvent, RoomFeed, RoomGap
from server._store_reads import StoreReads
from server._store_scripts import Script, ScriptRunner
from server._store_types import (
    CommitResult,
    Duplicate,
    LoggedMove,
    NotFound,
    PlayerFinished,
    PlayerRecord,
    RoomKeys,
    RoomRecord,
    StoreError,
    TokenBinding,
    VersionConflict,
)

__all__ = [
    "CommitResult",
    "Duplicate",
    "LoggedMove",
    "NotFound",
    "PlayerFinished",
    "PlayerRecord",
    "RoomEvent",
    "RoomFeed",
    "RoomGap",
    "RoomRecord",
    "Store",
    "StoreError",
    "TokenBinding",
    "VersionConflict",
]

_PLAYING = "playing"
POOL_WAIT_S = 10.0
"""How long a command waits for a free connection before it fails."""


def _checked(reply: list[Any]) -> list[Any]:
    """The reply after its status; the status's refusal raised."""
    status = Status(reply[0])
    if status is Status.MISSING:
        raise NotFound
    if status is Status.CONFLICT:
        raise VersionConflict(int(reply[1]))
    if status is Status.FINISHED:
        raise PlayerFinished
    return reply[1:]


class Store(StoreReads):
    """The store speaks the domain; see the module doc for how it maps onto Redis."""

    def __init__(
        self, client: Redis, prefix: str, *, group_commit: bool, stream_maxlen: int
    ) -> None:
        super().__init__(client, prefix)
        self._maxlen = stream_maxlen
        self._runner = ScriptRunner(client, group=group_commit)
        self._feed: RoomFeed | None = None

    @classmethod
    async def connect(
        cls,
        url: str,
        prefix: str = "solrace:",
        *,
        group_commit: bool = True,
        stream_maxlen: int = 4096,
        max_connections: int = 64,
    ) -> Store:
        """Connect and load the scripts (which also checks that Redis answers).

        At most `max_connections` commands are in flight at once; more wait for a
        free connection (a burst of requests queues instead of failing).

        Commands ride out a short outage (a Redis restart): a lost connection is
        retried with backoff for a few seconds before the error reaches the caller.
        """
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=POOL_WAIT_S,
            retry=Retry(ExponentialWithJitterBackoff(cap=0.5, base=0.02), retries=10),
            socket_connect_timeout=5,
        )
        client = Redis.from_pool(pool)
        store = cls(client, prefix, group_commit=group_commit, stream_maxlen=stream_maxlen)
        try:
            await store._runner.load(_lua.SCRIPTS)
        except BaseException:
            await client.aclose()
            raise
        return store

    async def close(self) -> None:
        """Close the feeds, let writes in flight finish, then close the connections."""
        if self._feed is not None:
            await self._feed.close()
            self._feed = None
        await self._runner.drain()
        await self._client.aclose()

    @property
    def round_trips(self) -> int:
        """Pipelines sent for script calls so far (group commit makes this < script_calls)."""
        return self._runner.round_trips

    @property
    def script_calls(self) -> int:
        """Script calls made so far."""
        return self._runner.calls

    def pubsub(self) -> PubSub:
        """A fresh pub/sub connection object (used by the feed)."""
        return self._client.pubsub()

    def feed(self) -> RoomFeed:
        """The live feed of room events for this process; call in a running event loop.

        Events this store commits reach its feed directly; other processes' events
        come by pub/sub. There is one feed per store.
        """
        if self._feed is None:
            self._feed = RoomFeed(self)
        return self._feed

    def _deliver_own(self, code: str, seqs: Sequence[int], events: Sequence[bytes]) -> None:
        """Hand the events just committed to this process's feed (no pub/sub echo)."""
        if self._feed is not None:
            for seq, body in zip(seqs, events, strict=True):
                self._feed.own(code, seq, body)

    # Rooms

    async def create_room(self, code: str, room: bytes) -> bool:
        """Store a new room at version 0; False when the code is taken."""
        keys = self._keys(code)
        reply = await self._run(_lua.CREATE_ROOM, keys, [keys.seats, keys.tokens], [room])
        if Status(reply[0]) is not Status.OK:
            return False
        await self._client.sadd(self._prefix + "rooms", code)
        return True

    async def save_room(
        self, code: str, expected_version: int, room: bytes, events: Sequence[bytes] = ()
    ) -> list[int]:
        """Replace the room and append its events; returns their seqs.

        Raises VersionConflict when the room moved past `expected_version`, NotFound
        when there is no such room.
        """
        reply = await self._run(
            _lua.SAVE_ROOM, self._keys(code), [], [expected_version, room, *events]
        )
        seqs = [int(seq) for seq in _checked(reply)[1:]]
        self._deliver_own(code, seqs, events)
        return seqs

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
    ) -> list[int]:
        """Save the room and give each seat a fresh game record, in one step.

        `players` maps seat -> initial engine state; `progress` is the cards the deal
        already has on the foundations, reached at `start_at_ms`. Game records of
        seats not in it are dropped. Raises like `save_room`.
        """
        keys = self._keys(code)
        pairs: list[EncodableT] = []
        for seat, state in players.items():
            pairs += [seat, state]
        args = [expected_version, room, start_at_ms, progress, len(players), *pairs, *events]
        reply = await self._run(_lua.START_RACE, keys, [keys.seats], args)
        seqs = [int(seq) for seq in _checked(reply)[1:]]
        self._deliver_own(code, seqs, events)
        return seqs

    async def expire_room(self, code: str, seconds: int | None) -> None:
        """Let every key of the room and its tokens live `seconds` more; None: keep them."""
        keys = self._keys(code)
        ttl = -1 if seconds is None else seconds
        reply = await self._run(_lua.EXPIRE_ROOM, keys, [keys.seats, keys.tokens], [ttl])
        pipe = self._client.pipeline(transaction=False)
        for token_hash in reply[1:]:
            token_key = self._token_key(token_hash.decode())
            if seconds is None:
                pipe.persist(token_key)
            else:
                pipe.expire(token_key, seconds)
        await pipe.execute()

    # Players

    async def commit_move(
        self,
        code: str,
        seat: int,
        expected_version: int,
        state: bytes,
        *,
        move_text: str,
        move_id: str,
        now_ms: int,
        progress: int,
        outcome: str,
        event: bytes,
    ) -> CommitResult | Duplicate:
        """Store a validated move with its event, or return the earlier result of `move_id`.

        Raises VersionConflict (the game moved past `expected_version`), PlayerFinished
        (the player's race is over) or NotFound (no game record for the seat).
        """
        keys = self._keys(code)
        entry = msgpack.packb([move_text, now_ms, move_id])
        extra = [keys.player(seat), keys.log(seat), keys.ids(seat)]
        args = [expected_version, state, entry, move_id, now_ms, progress, outcome, event]
        reply = await self._run(_lua.COMMIT_MOVE, keys, extra, args)
        if Status(reply[0]) is Status.DUPLICATE:
            return Duplicate(int(reply[1]), int(reply[2]))
        seq, version = _checked(reply)
        self._deliver_own(code, (int(seq),), (event,))
        return CommitResult(int(seq), int(version))

    async def finish_player(
        self, code: str, seat: int, outcome: str, now_ms: int, events: Sequence[bytes] = ()
    ) -> list[int] | None:
        """End a player's race without a move (resigned, timeout); returns the event seqs.

        None when the player had already finished (nothing is written then). Raises
        NotFound when the seat has no game record.
        """
        if outcome == _PLAYING:
            raise ValueError("a finished player's outcome cannot be 'playing'")
        keys = self._keys(code)
        args: list[EncodableT] = [outcome, now_ms, *events]
        reply = await self._run(_lua.FINISH_PLAYER, keys, [keys.player(seat)], args)
        if Status(reply[0]) is Status.FINISHED:
            return None
        seqs = [int(seq) for seq in _checked(reply)]
        self._deliver_own(code, seqs, events)
        return seqs

    # Helpers

    async def _run(
        self,
        script: Script,
        keys: RoomKeys,
        extra_keys: Sequence[str],
        args: Sequence[EncodableT],
    ) -> list[Any]:
        """Run a script with the common head (see server._lua)."""
        head_args: list[EncodableT] = [keys.base, self.process, self._maxlen]
        reply: list[Any] = await self._runner.run(
            script, [keys.room, keys.events, *extra_keys], [*head_args, *args]
        )
        return reply
