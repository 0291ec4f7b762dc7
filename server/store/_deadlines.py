"""The store's verbs of the deadline sets: claim the due deadlines, settle one.

See server.store._lua_deadline for how a set is kept; every save of a room
writes its entry (server.store._store). There is a set per shard of rooms
(server.store._keys); a claim reads every shard's, in one round trip on a
single Redis.
"""

from __future__ import annotations

import asyncio

from server.store import _lua_deadline
from server.store._cluster import Runner
from server.store._edge import translated
from server.store._reads import StoreReads
from server.store._script import Status


class StoreDeadlines(StoreReads):
    """Deadline half of `server.store.Store` (which sets up `_runner`)."""

    _runner: Runner

    @translated
    async def claim_deadlines(self, now_ms: int, retry_at_ms: int, limit: int = 100) -> list[str]:
        """Codes of rooms whose deadline is due by `now_ms`, claimed by this caller alone:
        at most `limit` of each shard's.

        Each claimed entry comes due again at `retry_at_ms` unless the room is saved
        or `settle_deadline` runs first: a claimer that dies loses nothing.
        """
        replies = await asyncio.gather(
            *(
                self._runner.run(
                    _lua_deadline.claim_due(
                        shard, now_ms=now_ms, retry_at_ms=retry_at_ms, limit=limit
                    )
                )
                for shard in self._names.deadlines
            )
        )
        return [code.decode() for reply in replies for code in reply[1:]]

    @translated
    async def settle_deadline(self, code: str, expected_version: int, due_ms: int | None) -> bool:
        """Set the room's next deadline (None: none) unless the room changed since.

        False when the room moved past `expected_version` (its save wrote the
        deadline). A room that is gone loses its entry.
        """
        call = _lua_deadline.settle(self._keys(code), expected=expected_version, due_ms=due_ms)
        reply = await self._runner.run(call)
        return Status(reply[0]) is not Status.CONFLICT

    @translated
    async def deadline_of(self, code: str) -> int | None:
        """When the room's deadline entry comes due, in ms; None if it has none."""
        score = await self._client.zscore(self._keys(code).deadlines, code)
        return None if score is None else int(score)
