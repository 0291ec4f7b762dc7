"""The store's challenges: a challenge's record and runs, and the race it came from.

Theory of operation. A challenge's two keys share the hash tag {c:K}, so writing
them is one MULTI; the pointer from the race (in the room's slot) is a key of its
own. Creating is: write the challenge under a fresh code (SET NX on nothing but
a random code, so it cannot clash), then claim the race's pointer (SET NX). If
the claim fails another racer's challenge came first: the fresh one is removed
and theirs is the race's. A crash between the two leaves a challenge nobody
knows the code of, which expires like any other. Every key lives until the
challenge closes plus the retention the caller gives; closing early shortens it.
Runs are opaque bytes here (server.challenges.records packs them), each under a
run id that sorts in the order they were recorded; adding one is HSETNX, so a
retry adds nothing. An account's ranked attempt is claimed the same way, once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from redis.exceptions import WatchError

from server.store._edge import translated
from server.store._reads import StoreReads

DAILY_SECRET_BYTES = 32
CLAIM_TRIES = 8
"""Attempts at a streak others keep changing (one account racing several games)."""


@dataclass(frozen=True)
class ChallengeRecord:
    """A challenge as stored: its packed body, when it was closed early, its runs
    without their moves (by run id, in recording order)."""

    body: bytes
    closed_ms: int | None
    runs: tuple[tuple[str, bytes], ...]


class StoreChallenges(StoreReads):
    """Challenge half of `server.store.Store`."""

    @translated
    async def create_challenge(
        self,
        code: str,
        body: bytes,
        runs: Mapping[str, tuple[bytes, bytes]],
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
            summaries: dict[Any, Any] = {run_id: parts[0] for run_id, parts in runs.items()}
            logs: dict[Any, Any] = {run_id: parts[1] for run_id, parts in runs.items()}
            pipe.hset(keys.runs, mapping=summaries)
            pipe.hset(keys.logs, mapping=logs)
        for key in (keys.challenge, keys.runs, keys.logs):
            pipe.pexpire(key, keep_ms)
        await pipe.execute()
        pointer = self._names.room(room).challenge(race_no)
        if await self._client.set(pointer, code, nx=True, px=keep_ms):
            return code
        await self._client.delete(keys.challenge, keys.runs, keys.logs)
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
        pipe.hgetall(keys.runs)
        (body, closed), runs = await pipe.execute()
        if body is None:
            return None
        closed_ms = None if closed is None else int(closed)
        ordered = tuple((bytes(run_id).decode(), bytes(runs[run_id])) for run_id in sorted(runs))
        return ChallengeRecord(bytes(body), closed_ms, ordered)

    @translated
    async def run_logs(self, code: str, run_ids: Sequence[str]) -> dict[str, bytes]:
        """The moves of the runs named (packed), by run id; a run without any is left out."""
        if not run_ids:
            return {}
        logs: list[Any] = await self._client.hmget(self._names.challenge(code).logs, list(run_ids))
        return {run_id: bytes(log) for run_id, log in zip(run_ids, logs, strict=True) if log}

    @translated
    async def claim_ranked(self, code: str, account: str, run_id: str) -> bool:
        """Whether run `run_id` is the account's ranked attempt at the challenge: the
        first run to claim it is, again on every retry; any other is not."""
        keys = self._names.challenge(code)
        pipe = self._client.pipeline(transaction=True)
        pipe.hsetnx(keys.ranked, account, run_id)
        pipe.hget(keys.ranked, account)
        pipe.pttl(keys.challenge)
        _, holder, keep_ms = await pipe.execute()
        if keep_ms > 0:
            await self._client.pexpire(keys.ranked, keep_ms)
        return holder is not None and bytes(holder).decode() == run_id

    @translated
    async def add_run(self, code: str, run_id: str, run: bytes, log: bytes) -> bool:
        """Add a run (and its moves) under `run_id` unless one is there already (a
        retry) or the challenge is gone; whether it was added."""
        keys = self._names.challenge(code)
        pipe = self._client.pipeline(transaction=True)
        pipe.exists(keys.challenge)
        pipe.pttl(keys.challenge)
        exists, keep_ms = await pipe.execute()
        if not exists:
            return False
        pipe = self._client.pipeline(transaction=True)
        pipe.hsetnx(keys.logs, run_id, log)
        pipe.hsetnx(keys.runs, run_id, run)
        if keep_ms > 0:
            pipe.pexpire(keys.logs, keep_ms)
            pipe.pexpire(keys.runs, keep_ms)
        _, added, *_ = await pipe.execute()
        return bool(added)

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
        pipe.pexpire(keys.logs, keep_ms)
        pipe.pexpire(keys.ranked, keep_ms)
        _, closed, *_ = await pipe.execute()
        return None if closed is None else int(closed)

    @translated
    async def daily_secret(self) -> bytes:
        """The server's daily-deal secret: made once (the first process to ask sets it,
        SET NX), then the same for every process; kept in this store only."""
        cached: bytes | None = getattr(self, "_daily_secret_cache", None)
        if cached is not None:
            return cached
        key = self._names.daily_secret
        await self._client.set(key, secrets.token_bytes(DAILY_SECRET_BYTES), nx=True)
        stored: Any = await self._client.get(key)
        secret = bytes(stored)
        self._daily_secret_cache = secret
        return secret

    @translated
    async def ensure_challenge(self, code: str, body: bytes, keep_ms: int) -> None:
        """Store challenge `code` with `body` unless it is stored already (a day's deal:
        every process makes the same record)."""
        keys = self._names.challenge(code)
        if await self._client.hsetnx(keys.challenge, "body", body):
            await self._client.pexpire(keys.challenge, keep_ms)

    @translated
    async def daily_streak(self, account: str) -> tuple[str, int] | None:
        """The account's last day with a ranked daily run and its streak then."""
        values: list[Any] = await self._client.hmget(
            self._names.account(account).daily, ["day", "streak"]
        )
        if values[0] is None:
            return None
        return bytes(values[0]).decode(), int(values[1] or 0)

    @translated
    async def put_streak(
        self, account: str, step: Callable[[str | None, int], tuple[str, int]]
    ) -> None:
        """Set the account's streak to `step(last day, streak)`, unless the account is
        gone; a compare-and-set (WATCH), tried again if it changed meanwhile."""
        keys = self._names.account(account)
        for _ in range(CLAIM_TRIES):
            async with self._client.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(keys.daily, keys.account)
                    if not await pipe.exists(keys.account):
                        return
                    stored: list[Any] = await pipe.hmget(keys.daily, ["day", "streak"])
                    day, streak = stored
                    last = None if day is None else bytes(day).decode()
                    new_day, new_streak = step(last, int(streak or 0))
                    pipe.multi()  # type: ignore[no-untyped-call]
                    pipe.hset(keys.daily, mapping={"day": new_day, "streak": new_streak})
                    await pipe.execute()
                    return
                except WatchError:
                    continue
