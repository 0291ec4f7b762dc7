"""Race records in an account: once per race, ratings kept when another race came
first, history bounded, best times and boards only when they improve."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest
from redis.asyncio import Redis

from protocol.limits import MAX_HISTORY
from server.store import DealWin, RatingMove, Recorded, Store, StoredRating
from tests.server.store._helpers import OpenStore

pytestmark = pytest.mark.every_backend

GAME = "little-forty"
NEW = StoredRating(25.0, 25.0 / 3.0, 0)


def _keys(prefix: str, account: str) -> dict[str, str]:
    base = f"{prefix}{{a:{account}}}:"
    return {part: base + part for part in ("account", "ratings", "history", "best")}


async def _account(raw: Redis, prefix: str, account: str) -> None:
    await raw.hset(_keys(prefix, account)["account"], mapping={"name": account, "created_ms": 1})


def _move(before: StoredRating, mu: float, sigma: float) -> RatingMove:
    return RatingMove(before, mu, sigma)


async def _apply(
    store: Store,
    account: str,
    race: str,
    *,
    history: bytes = b"h",
    rating: RatingMove | None = None,
    best: DealWin | None = None,
    min_races: int = 5,
) -> Recorded | None:
    return await store.apply_record(
        account, race, GAME, history=history, rating=rating, best=best, board_min_races=min_races
    )


async def _rating(raw: Redis, prefix: str, account: str) -> list[float]:
    stored = await raw.hget(_keys(prefix, account)["ratings"], GAME)
    assert stored is not None
    values: list[float] = msgpack.unpackb(stored)
    return values


async def test_a_race_is_recorded_once(store: Store, raw: Redis, key_prefix: str) -> None:
    await _account(raw, key_prefix, "a1")
    move = _move(NEW, 27.5, 8.1)
    first = await _apply(store, "a1", "R:1:5", history=b"entry", rating=move)
    again = await _apply(store, "a1", "R:1:5", history=b"entry", rating=move)
    assert first is not None and first.applied and first.rating == StoredRating(27.5, 8.1, 1)
    assert again is not None and not again.applied and again.rating == first.rating
    keys = _keys(key_prefix, "a1")
    assert await raw.lrange(keys["history"], 0, -1) == [b"entry"]
    assert await _rating(raw, key_prefix, "a1") == [27.5, 8.1, 1]
    done = f"{key_prefix}{{a:a1}}:done:R:1:5"
    assert 86000 < await raw.ttl(done) <= 86400
    assert await raw.ttl(keys["history"]) == -1 and await raw.ttl(keys["ratings"]) == -1


async def test_a_race_rated_meanwhile_is_kept(store: Store, raw: Redis, key_prefix: str) -> None:
    """Both races planned from the same prior: the second applies its change to the first's."""
    await _account(raw, key_prefix, "a1")
    await _apply(store, "a1", "R:1:5", history=b"1", rating=_move(NEW, 27.0, 8.0))
    late = await _apply(store, "a1", "S:1:6", history=b"2", rating=_move(NEW, 24.0, 7.5))
    assert late is not None and late.rating is not None
    assert late.rating.races == 2
    assert late.rating.mu == pytest.approx(27.0 + (24.0 - 25.0))
    assert late.rating.sigma == pytest.approx(8.0 * 7.5 / (25.0 / 3.0))
    assert await raw.lrange(_keys(key_prefix, "a1")["history"], 0, -1) == [b"2", b"1"]


async def test_history_keeps_the_newest_races(store: Store, raw: Redis, key_prefix: str) -> None:
    await _account(raw, key_prefix, "a1")
    history = _keys(key_prefix, "a1")["history"]
    await raw.rpush(history, *[b"old%d" % n for n in range(MAX_HISTORY)])
    await _apply(store, "a1", "R:1:5", history=b"new")
    assert await raw.llen(history) == MAX_HISTORY
    assert await raw.lindex(history, 0) == b"new"
    assert await raw.lindex(history, -1) == b"old%d" % (MAX_HISTORY - 2)
    assert await raw.hget(_keys(key_prefix, "a1")["ratings"], GAME) is None


async def test_best_times_and_the_deal_board_only_improve(
    store: Store, raw: Redis, key_prefix: str
) -> None:
    await _account(raw, key_prefix, "a1")
    board = f"{key_prefix}deal:{{{GAME}:7}}"
    for race, elapsed in (("R:1:5", 9_000), ("R:2:6", 7_000), ("R:3:7", 8_000)):
        win = DealWin(7, elapsed, int(race[-1]))
        await _apply(store, "a1", race, best=win)
    best = await raw.hget(_keys(key_prefix, "a1")["best"], f"{GAME}:7")
    assert best is not None and msgpack.unpackb(best) == [7_000, 6]
    assert await raw.zrange(board, 0, -1, withscores=True) == [(b"a1", 7_000.0)]


async def test_the_rating_board_waits_for_enough_races(
    store: Store, raw: Redis, key_prefix: str
) -> None:
    await _account(raw, key_prefix, "a1")
    board = f"{key_prefix}board:{{{GAME}}}"
    before = NEW
    for race in range(3):
        move = _move(before, before.mu + 1, 5.0)
        recorded = await _apply(store, "a1", f"R:{race}:1", rating=move, min_races=3)
        assert recorded is not None and recorded.rating is not None
        before = recorded.rating
        on_board = await raw.zscore(board, "a1")
        assert on_board == (None if race < 2 else pytest.approx(before.mu - 15.0))
    priors = await store.rating_priors(["a1", "nobody"], GAME)
    assert priors == {"a1": StoredRating(28.0, 5.0, 3)}


async def test_a_missing_or_deleting_account_gets_nothing(
    store: Store, raw: Redis, key_prefix: str
) -> None:
    move, win = _move(NEW, 26.0, 8.0), DealWin(3, 10, 1)
    assert await _apply(store, "gone", "R:1:1", rating=move, best=win, min_races=0) is None
    await _account(raw, key_prefix, "a2")
    await raw.hset(_keys(key_prefix, "a2")["account"], "deleting", "1")
    assert await _apply(store, "a2", "R:1:1", rating=move, best=win, min_races=0) is None
    keys = [key async for key in raw.scan_iter(match=key_prefix + "*")]
    assert keys == [_keys(key_prefix, "a2")["account"].encode()]


async def test_two_stores_recording_at_once_record_once(
    store: Store, open_store: OpenStore, raw: Redis, key_prefix: str
) -> None:
    other = await open_store()
    await _account(raw, key_prefix, "a1")
    move = _move(NEW, 26.0, 8.0)
    results = await asyncio.gather(*(_apply(s, "a1", "R:1:1", rating=move) for s in (store, other)))
    assert sorted(r.applied for r in results if r is not None) == [False, True]
    assert await raw.llen(_keys(key_prefix, "a1")["history"]) == 1
    assert await _rating(raw, key_prefix, "a1") == [26.0, 8.0, 1]


async def test_a_delete_begun_before_the_boards_takes_the_account_off_them(
    store: Store, raw: Redis, key_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The delete marks the account and leaves its boards between the script and the
    boards' ZADDs; the account must not stay on them."""
    await _account(raw, key_prefix, "a1")
    runner = store._runner
    script = runner.run

    async def then_deleting(call: Any) -> Any:
        reply = await script(call)
        await raw.hset(_keys(key_prefix, "a1")["account"], "deleting", "1")
        return reply

    monkeypatch.setattr(runner, "run", then_deleting)
    win = DealWin(9, 5_000, 1)
    recorded = await _apply(
        store, "a1", "R:1:1", rating=_move(NEW, 26.0, 8.0), best=win, min_races=0
    )
    assert recorded is not None and recorded.applied
    assert await raw.zcard(f"{key_prefix}board:{{{GAME}}}") == 0
    assert await raw.zcard(f"{key_prefix}deal:{{{GAME}:9}}") == 0
    monkeypatch.setattr(runner, "run", script)
    assert await _apply(store, "a1", "R:2:1", best=win, min_races=0) is None
