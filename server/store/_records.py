"""The store's verbs of race records: write one race into one account, read priors.

`apply_record` is one script on the account's slot (server.store._lua_records),
idempotent by the race's done marker. The leaderboards are other slots, so their
updates follow as plain commands; each is idempotent (ZADD of the rating the
account has now, ZADD LT of a win's time), so a process that dies between the
script and the boards loses nothing: the next run finds the race done and writes
the boards again. A delete of the account that begins between the script and the
boards may have taken the account off its boards before they are written; the
same pipeline reads the account after its ZADDs, and takes them back if so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgpack

from protocol.limits import MAX_HISTORY
from server.store import _lua_records
from server.store._account_reads import StoredRating
from server.store._cluster import Runner
from server.store._edge import translated
from server.store._reads import StoreReads
from server.store._script import Status

DONE_S = 86400
"""How long an account remembers that a race is recorded in it (a day: far longer
than a finished room lives, which is when the race can be recorded again)."""


@dataclass(frozen=True, slots=True)
class RatingMove:
    """A rated race's change to one account: what the plan read and what it computed."""

    before: StoredRating
    after_mu: float
    after_sigma: float


@dataclass(frozen=True, slots=True)
class DealWin:
    """A win of a public deal outside practice: for the best times and the deal's board."""

    deal_number: int
    elapsed_ms: int
    at_ms: int
    """When the race started."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """What `apply_record` did."""

    applied: bool
    """False: the race was recorded in the account before; nothing was written."""
    rating: StoredRating | None
    """The account's rating of the game now (None: it has none)."""


class StoreRecords(StoreReads):
    """Records half of `server.store.Store` (which sets up `_runner`)."""

    _runner: Runner

    @translated
    async def apply_record(
        self,
        account_id: str,
        race_key: str,
        variant: str,
        *,
        history: bytes,
        rating: RatingMove | None,
        best: DealWin | None,
        board_min_races: int,
    ) -> Recorded | None:
        """Record race `race_key` in the account once: its packed history entry, its
        rating move in game `variant` (rated races) and its public-deal win; then the
        game's leaderboard (from `board_min_races` rated races) and the deal's.

        None when the account does not exist or is being deleted (nothing is written).
        """
        keys = self._names.account(account_id)
        call = _lua_records.apply_record(
            keys,
            race_key,
            variant=variant,
            entry=history,
            max_history=MAX_HISTORY,
            done_s=DONE_S,
            rating=None if rating is None else _move_args(rating),
            best=None if best is None else _best_args(variant, best),
        )
        reply = await self._runner.run(call)
        status = Status(reply[0])
        if status is Status.MISSING:
            return None
        recorded = Recorded(status is Status.OK, _rating(reply[1]))
        await self._boards(account_id, variant, recorded.rating, best, board_min_races)
        return recorded

    @translated
    async def rating_priors(
        self, account_ids: Sequence[str], variant: str
    ) -> dict[str, StoredRating]:
        """Each account's rating of game `variant`, read in one round trip; an account
        with none (no rated race of that game yet) is left out."""
        pipe = self._client.pipeline(transaction=False)
        for account_id in account_ids:
            pipe.hget(self._names.account(account_id).ratings, variant)
        values = await pipe.execute()
        priors = {}
        for account_id, value in zip(account_ids, values, strict=True):
            if (stored := _rating(value)) is not None:
                priors[account_id] = stored
        return priors

    async def _boards(
        self,
        account_id: str,
        variant: str,
        rating: StoredRating | None,
        best: DealWin | None,
        min_races: int,
    ) -> None:
        """The account onto the game's board and the deal's; then off them again if a
        delete of the account began meanwhile (it may have left the boards already)."""
        index = self._names.index
        boards: dict[str, tuple[float, bool]] = {}
        if rating is not None and rating.races >= min_races:
            boards[index.board(variant)] = (rating.mu - 3 * rating.sigma, False)
        if best is not None:
            boards[index.deal(variant, best.deal_number)] = (best.elapsed_ms, True)
        if not boards:
            return
        account = self._names.account(account_id).account
        pipe = self._client.pipeline(transaction=False)
        for board, (score, lower) in boards.items():
            pipe.zadd(board, {account_id: score}, lt=lower)
        pipe.hmget(account, ["name", "deleting"])
        *_, (name, deleting) = await pipe.execute()
        if name is None or deleting is not None:
            for board in boards:
                pipe.zrem(board, account_id)
            await pipe.execute()


def _rating(value: Any) -> StoredRating | None:
    if value is None:
        return None
    mu, sigma, races = msgpack.unpackb(value)
    return StoredRating(float(mu), float(sigma), int(races))


def _move_args(move: RatingMove) -> tuple[tuple[float, float, int], tuple[float, float]]:
    before = move.before
    return (before.mu, before.sigma, before.races), (move.after_mu, move.after_sigma)


def _best_args(variant: str, win: DealWin) -> tuple[str, int, bytes]:
    packed: bytes = msgpack.packb([win.elapsed_ms, win.at_ms])
    return f"{variant}:{win.deal_number}", win.elapsed_ms, packed
