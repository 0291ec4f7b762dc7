"""The store's reads of what accounts have: ratings, history, best times, leaderboards.

Plain commands, none of them guarded: what they read is written elsewhere, in
one step per account (server.store._records). Ratings are msgpack [mu, sigma,
rated races]; history entries and best times stay as the writer packed them
(server.accounts.codec) and are handed back as bytes.

A leaderboard page reads the board's slice, then each account's name (and its
rating, or its best time) in one round trip. An id whose account is gone (a delete
under way) is left out of the page; the places of the others stand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import msgpack

from server.store._edge import translated
from server.store._reads import StoreReads

HISTORY_CHUNK = 100
"""History entries read per round trip while a page is filtered by game."""
HISTORY_SCAN = 1000
"""Entries a filtered page looks through at most (the whole list, as it is kept)."""


class StoredRating(NamedTuple):
    """An account's rating in one game, as kept: OpenSkill's mu and sigma, rated races."""

    mu: float
    sigma: float
    races: int


@dataclass(frozen=True)
class HistoryPage:
    """Packed history entries, newest first; `next_before` resumes after them (None: no more)."""

    entries: list[bytes]
    next_before: int | None


@dataclass(frozen=True)
class RatingLine:
    """One account on a game's rating board."""

    place: int
    name: str
    rating: StoredRating


@dataclass(frozen=True)
class DealLine:
    """One account on a public deal's board: its fastest win and when that race started."""

    place: int
    name: str
    elapsed_ms: int
    at_ms: int | None


class StoreAccountReads(StoreReads):
    """Account-reading half of `server.store.Store`."""

    @translated
    async def account_ratings(self, account_id: str) -> dict[str, StoredRating]:
        """Every game the account has a rating in, by game."""
        stored: dict[Any, Any] = await self._client.hgetall(self._names.account(account_id).ratings)
        return _ratings(stored)

    @translated
    async def ratings_of(self, account_ids: Sequence[str]) -> dict[str, dict[str, StoredRating]]:
        """`account_ratings` of several accounts, in one round trip."""
        pipe = self._client.pipeline(transaction=False)
        for account_id in account_ids:
            pipe.hgetall(self._names.account(account_id).ratings)
        replies = await pipe.execute()
        return {
            account_id: _ratings(stored)
            for account_id, stored in zip(account_ids, replies, strict=True)
        }

    @translated
    async def history_page(
        self,
        account_id: str,
        before: int,
        limit: int,
        keep: Callable[[bytes], bool] | None = None,
    ) -> HistoryPage:
        """Up to `limit` entries from list index `before` on, those `keep` passes.

        Without `keep` this is one LRANGE. With it, the list is read a chunk at a
        time until the page is full, the list ends or `HISTORY_SCAN` entries were
        looked at; `next_before` then says where the next page goes on from.
        """
        history = self._names.account(account_id).history
        if keep is None:
            pipe = self._client.pipeline(transaction=False)
            pipe.lrange(history, before, before + limit - 1)
            pipe.llen(history)
            entries, length = await pipe.execute()
            after = before + len(entries)
            return HistoryPage(list(entries), after if after < length else None)
        return await self._filtered_page(history, before, limit, keep)

    async def _filtered_page(
        self, history: str, before: int, limit: int, keep: Callable[[bytes], bool]
    ) -> HistoryPage:
        found: list[bytes] = []
        index, stop = before, before + HISTORY_SCAN
        while index < stop:
            chunk: list[Any] = await self._client.lrange(
                history, index, min(index + HISTORY_CHUNK, stop) - 1
            )
            for entry in chunk:
                index += 1
                if keep(entry):
                    found.append(entry)
                    if len(found) == limit:
                        return HistoryPage(found, await self._more(history, index))
            if len(chunk) < HISTORY_CHUNK:
                return HistoryPage(found, None)
        return HistoryPage(found, await self._more(history, index))

    async def _more(self, history: str, index: int) -> int | None:
        length: int = await self._client.llen(history)
        return index if index < length else None

    @translated
    async def best_times(self, account_id: str) -> dict[str, tuple[int, int]]:
        """The account's fastest wins: "<game>:<deal number>" -> (elapsed ms, race start ms)."""
        stored: dict[Any, Any] = await self._client.hgetall(self._names.account(account_id).best)
        best = {}
        for field, value in stored.items():
            elapsed_ms, at_ms = msgpack.unpackb(value)
            best[field.decode()] = (int(elapsed_ms), int(at_ms))
        return best

    @translated
    async def rating_board(
        self, variant: str, offset: int, limit: int
    ) -> tuple[list[RatingLine], int]:
        """Accounts `offset` + 1 onwards by rating, best first, and how many are on the board."""
        board = self._names.index.board(variant)
        pipe = self._client.pipeline(transaction=False)
        pipe.zrevrange(board, offset, offset + limit - 1)
        pipe.zcard(board)
        members, total = await pipe.execute()
        ids = [member.decode() for member in members]
        for account_id in ids:
            keys = self._names.account(account_id)
            pipe.hget(keys.account, "name")
            pipe.hget(keys.ratings, variant)
        found = await pipe.execute()
        lines = []
        for place, (name, rating) in enumerate(zip(found[::2], found[1::2], strict=True), 1):
            if name is not None and rating is not None:
                mu, sigma, races = msgpack.unpackb(rating)
                stored = StoredRating(float(mu), float(sigma), int(races))
                lines.append(RatingLine(offset + place, name.decode(), stored))
        return lines, int(total)

    @translated
    async def deal_board(
        self, variant: str, deal_number: int, offset: int, limit: int
    ) -> tuple[list[DealLine], int]:
        """Accounts `offset` + 1 onwards by their fastest win of a public deal, fastest first."""
        board = self._names.index.deal(variant, deal_number)
        pipe = self._client.pipeline(transaction=False)
        pipe.zrange(board, offset, offset + limit - 1, withscores=True)
        pipe.zcard(board)
        members, total = await pipe.execute()
        for member, _ in members:
            keys = self._names.account(member.decode())
            pipe.hget(keys.account, "name")
            pipe.hget(keys.best, f"{variant}:{deal_number}")
        found = await pipe.execute()
        lines = []
        for place, ((_, elapsed_ms), name, best) in enumerate(
            zip(members, found[::2], found[1::2], strict=True), 1
        ):
            if name is not None:
                at_ms = None if best is None else int(msgpack.unpackb(best)[1])
                lines.append(DealLine(offset + place, name.decode(), int(elapsed_ms), at_ms))
        return lines, int(total)


def _ratings(stored: dict[Any, Any]) -> dict[str, StoredRating]:
    ratings = {}
    for game, value in stored.items():
        mu, sigma, races = msgpack.unpackb(value)
        ratings[game.decode()] = StoredRating(float(mu), float(sigma), int(races))
    return ratings
