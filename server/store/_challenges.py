"""The store's challenges: a challenge's record and runs, and the race it came from.

Theory of operation. A challenge's two keys share the hash tag {c:K}, so writing
them is one MULTI; the pointer from the race (in the room's slot) is a key of its
own. Creating is: write the challenge under a fresh code (SET NX on nothing but
a random code, so it cannot clash), then claim the race's pointer (SET NX). If
the claim fails another racer's challenge came first: the fresh one is removed
and theirs is the race's. A crash between the two leaves a challenge nobody
knows the code of, which expires like any other. Every key lives until the
challenge closes plus the retention the caller gives; closing early shortens it.
Runs are opaque bytes here (server.challenges.records packs them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.store._edge import translated
from server.store._reads import StoreReads


@dataclass(frozen=True)
class ChallengeRecord:
    """A challenge as stored: its packed body, when it was closed early, its runs."""

    body: bytes
    closed_ms: int | None
    runs: tuple[bytes, ...]


class StoreChallenges(StoreReads):
    """Challenge half of `server.store.Store`."""

    @translated
    async def create_challenge(
        self,
        code: str,
        body: bytes,
        runs: Sequence[bytes],
        *,
        room: str,
        race_no: int,
        keep_ms: int,
    ) -> str:
        """Store challenge `code` of the room's race, kept `keep_ms`, unless the race
        has one already: the code of the race's challenge, this one or the earlier."""
        keys = self._names.challenge(code)
        pipe = self._client.pipeline(transaction=True)
        pipe.hset(keys.challenge, "body", body)
        if runs:
            pipe.rpush(keys.runs, *runs)
        pipe.pexpire(keys.challenge, keep_ms)
        pipe.pexpire(keys.runs, keep_ms)
        await pipe.execute()
        pointer = self._names.room(room).challenge(race_no)
        if await self._client.set(pointer, code, nx=True, px=keep_ms):
            return code
        await self._client.delete(keys.challenge, keys.runs)
        earlier: Any = await self._client.get(pointer)
        return code if earlier is None else bytes(earlier).decode()

    @translated
    async def race_challenge(self, room: str, race_no: int) -> str | None:
        """The code of the challenge made from the room's race, if there is one."""
        code: Any = await self._client.get(self._names.room(room).challenge(race_no))
        return None if code is None else bytes(code).decode()

    @translated
    async def load_challenge(self, code: str) -> ChallengeRecord | None:
        """The challenge and every run of it, in one round trip; None if there is none."""
        keys = self._names.challenge(code)
        pipe = self._client.pipeline(transaction=True)
        pipe.hmget(keys.challenge, ["body", "closed_ms"])
        pipe.lrange(keys.runs, 0, -1)
        (body, closed), runs = await pipe.execute()
        if body is None:
            return None
        closed_ms = None if closed is None else int(closed)
        return ChallengeRecord(bytes(body), closed_ms, tuple(bytes(run) for run in runs))

    @translated
    async def close_challenge(self, code: str, now_ms: int, keep_ms: int) -> int | None:
        """Mark the challenge closed at `now_ms` unless it is already, and keep it
        `keep_ms` from now; when it was closed, or None if there is no such challenge."""
        keys = self._names.challenge(code)
        if not await self._client.exists(keys.challenge):
            return None
        pipe = self._client.pipeline(transaction=True)
        pipe.hsetnx(keys.challenge, "closed_ms", now_ms)
        pipe.hget(keys.challenge, "closed_ms")
        pipe.pexpire(keys.challenge, keep_ms)
        pipe.pexpire(keys.runs, keep_ms)
        _, closed, _, _ = await pipe.execute()
        return None if closed is None else int(closed)
