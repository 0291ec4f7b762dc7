"""The store's plain commands: reads, token bookkeeping and room watching.

None of these needs a guard, so none is a script. Each verb raises
`StoreUnavailable` when Redis cannot serve it (server.store._edge).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection
from typing import Any

import msgpack
from redis.asyncio import Redis

from server.store._edge import translated
from server.store._keys import RoomKeys, StoreKeys
from server.store._link import LinkSettings
from server.store._types import Duplicate, LoggedMove, PlayerRecord, RoomRecord, TokenBinding

_PLAYER_FIELDS = ("state", "version", "progress", "progress_at_ms", "outcome", "finished_at_ms")


class StoreReads:
    """Plain-command half of `server.store.Store`: one connection pool, one key prefix."""

    def __init__(
        self,
        client: Redis,
        prefix: str,
        links: Callable[[], LinkSettings] | None = None,
        *,
        all_nodes: bool = False,
    ) -> None:
        """`links` gives the settings of the feed's connections (default: the client's
        pool's); `all_nodes`: the client is a cluster's, whose every node is asked who
        listens (a subscriber counts on the node it is connected to)."""
        self._client = client
        self._links = links or (lambda: client.connection_pool)
        self._numsub_options: dict[str, Any] = {"target_nodes": "all"} if all_nodes else {}
        self._names = StoreKeys(prefix)
        self.process = secrets.token_hex(8)
        """This store's id among the processes that watch rooms (its channel's suffix)."""

    @translated
    async def ping(self) -> None:
        """Wait for Redis to answer; raises `StoreUnavailable` when it cannot."""
        await self._client.ping()

    @translated
    async def load_room(self, code: str) -> RoomRecord | None:
        values: list[Any] = await self._client.hmget(
            self._keys(code).room, ["body", "version", "seq"]
        )
        body, version, seq = values
        if body is None:
            return None
        return RoomRecord(body, int(version), int(seq))

    @translated
    async def load_player(self, code: str, seat: int) -> PlayerRecord | None:
        values: list[Any] = await self._client.hmget(self._keys(code).player(seat), _PLAYER_FIELDS)
        state, version, progress, progress_at_ms, outcome, finished_at_ms = values
        if state is None:
            return None
        return PlayerRecord(
            state=state,
            version=int(version),
            progress=int(progress),
            progress_at_ms=int(progress_at_ms),
            outcome=outcome.decode(),
            finished_at_ms=None if finished_at_ms is None else int(finished_at_ms),
        )

    @translated
    async def move_log(
        self, code: str, seat: int, start: int = 0, stop: int = -1
    ) -> list[LoggedMove]:
        """The seat's moves from index `start` to `stop` inclusive (-1: the last)."""
        entries: list[Any] = await self._client.lrange(self._keys(code).log(seat), start, stop)
        return [LoggedMove(*msgpack.unpackb(entry)) for entry in entries]

    @translated
    async def find_move(self, code: str, seat: int, move_id: str) -> Duplicate | None:
        """The stored result of a move id the seat sent before, or None if it is new."""
        seen: Any = await self._client.hget(self._keys(code).ids(seat), move_id)
        if seen is None:
            return None
        seq, version = seen.split(b" ")
        return Duplicate(int(seq), int(version))

    @translated
    async def events_since(
        self, code: str, after_seq: int, limit: int = 1000
    ) -> list[tuple[int, bytes]] | None:
        """The room's events after `after_seq`, oldest first, at most `limit` of them.

        None when they can no longer all be replayed (the stream was trimmed past
        `after_seq`, the room is gone, or `after_seq` is ahead of the room): the caller
        sends a snapshot instead.
        """
        keys = self._keys(code)
        pipe = self._client.pipeline(transaction=True)
        pipe.hget(keys.room, "seq")
        pipe.xrange(keys.events, min=f"{after_seq + 1}-0", max="+", count=limit)
        room_seq, entries = await pipe.execute()
        if room_seq is None or after_seq > int(room_seq):
            return None
        events = [(int(entry_id.split(b"-")[0]), fields[b"e"]) for entry_id, fields in entries]
        if after_seq < int(room_seq) and (not events or events[0][0] != after_seq + 1):
            return None
        return events

    @translated
    async def find_token(self, token_hash: str) -> TokenBinding | None:
        value: Any = await self._client.get(self._token_key(token_hash))
        if value is None:
            return None
        code, seat = value.decode().split(" ")
        return TokenBinding(code, None if seat == "-" else int(seat))

    @translated
    async def room_count(self) -> int:
        """Rooms that still exist (drops the codes of expired rooms from the set)."""
        live_key = self._names.rooms
        members: set[Any] = await self._client.smembers(live_key)
        codes = [code.decode() for code in members]
        pipe = self._client.pipeline(transaction=False)
        for code in codes:
            pipe.exists(self._keys(code).room)
        alive = await pipe.execute()
        gone = [code for code, exists in zip(codes, alive, strict=True) if not exists]
        if gone:
            await self._client.srem(live_key, *gone)
        return len(codes) - len(gone)

    @translated
    async def bind_token(self, token_hash: str, code: str, seat: int | None) -> None:
        """Remember where a token belongs; it expires along with its room."""
        keys = self._keys(code)
        token_key = self._token_key(token_hash)
        pipe = self._client.pipeline(transaction=False)
        pipe.set(token_key, f"{code} {'-' if seat is None else seat}")
        pipe.sadd(keys.tokens, token_hash)
        pipe.pttl(keys.room)
        *_, room_ttl_ms = await pipe.execute()
        if room_ttl_ms > 0:
            pipe.pexpire(token_key, room_ttl_ms)
            pipe.pexpire(keys.tokens, room_ttl_ms)
            await pipe.execute()

    @translated
    async def unbind_token(self, token_hash: str, code: str) -> None:
        """Forget a token (its player left the room)."""
        pipe = self._client.pipeline(transaction=False)
        pipe.delete(self._token_key(token_hash))
        pipe.srem(self._keys(code).tokens, token_hash)
        await pipe.execute()

    @translated
    async def add_watcher(self, code: str) -> None:
        """Have the room's events published to this process from now on."""
        await self._client.sadd(self._keys(code).watchers, self.channel(code))

    @translated
    async def remove_watcher(self, code: str) -> None:
        await self._client.srem(self._keys(code).watchers, self.channel(code))

    @translated
    async def listening(self, watches: Collection[tuple[str, str]]) -> set[tuple[str, str]]:
        """The (room code, process) pairs whose process is subscribed to the room's
        events right now: a process that died has no subscription left."""
        channels = {self._keys(code).channel(process): (code, process) for code, process in watches}
        if not channels:
            return set()
        counts: list[tuple[Any, int]] = await self._client.pubsub_numsub(
            *channels, **self._numsub_options
        )
        return {channels[name.decode()] for name, count in counts if count > 0}

    def channel(self, code: str) -> str:
        """The pub/sub channel on which this process hears the room's events."""
        return self._keys(code).channel(self.process)

    def link_settings(self) -> LinkSettings:
        """Where the feed opens its next pub/sub connection, with which settings."""
        return self._links()

    def _keys(self, code: str) -> RoomKeys:
        return self._names.room(code)

    def _token_key(self, token_hash: str) -> str:
        return self._names.token(token_hash)
