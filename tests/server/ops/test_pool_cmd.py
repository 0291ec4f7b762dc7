"""``solrace-server fill-pool`` and ``pool``: only deals the solver won go into the pool."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable

import pytest
from redis.asyncio import Redis

from engine import new_game
from engine.solver import Budget, solve
from server.__main__ import main as server_main
from server.ops import pool_cmd
from server.store import Store

GAME = "little-milligan"
WON = [hashlib.sha256(b"pool-test-%d" % n).digest() for n in (0, 4, 5)]
"""Deals of GAME the solver wins in a few hundred positions."""
UNDECIDED = hashlib.sha256(b"pool-test-22").digest()
"""A deal of GAME the solver leaves undecided after 150,000 positions (12 CPU s)."""


def _pinned(*secrets: bytes) -> Callable[[], bytes]:
    """The secrets in order (a test's deals); asking for more is an error."""
    return iter(secrets).__next__


async def _pool(redis_url: str, key: str) -> set[bytes]:
    client = Redis.from_url(redis_url)
    try:
        return {
            member.encode() if isinstance(member, str) else member
            for member in await client.smembers(key)
        }
    finally:
        await client.aclose()


async def test_only_won_deals_are_added_until_the_count(
    store: Store, redis_url: str, key_prefix: str
) -> None:
    lines: list[str] = []
    filling = pool_cmd.Filling(count=2, max_deals=10)
    secrets = _pinned(WON[0], UNDECIDED, WON[1], WON[2])
    await pool_cmd.fill(store, GAME, filling, budget_s=0.3, secrets=secrets, report=lines.append)
    assert (filling.tried, filling.added) == (3, 2)
    pool = await _pool(redis_url, f"{key_prefix}winnable:{GAME}")
    assert pool == {WON[0], WON[1]}
    for seed in pool:
        assert solve(new_game(GAME, seed), Budget(nodes=5000)).result == "won"
    assert [line.split()[2] for line in lines] == ["won", "undecided", "won"]
    assert lines[-1].endswith("added 2/2")
    assert not any(seed.hex()[:16] in "\n".join(lines) for seed in pool)


async def test_filling_stops_after_its_most_deals(store: Store) -> None:
    filling = pool_cmd.Filling(count=2, max_deals=2)
    secrets = _pinned(UNDECIDED, WON[0])
    await pool_cmd.fill(store, GAME, filling, budget_s=0.3, secrets=secrets, report=print)
    assert (filling.tried, filling.added) == (2, 1)
    assert await store.winnable_counts([GAME]) == {GAME: 1}


def test_the_command_fills_with_worker_processes_and_prints_the_level(
    redis_url: str, key_prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--redis", redis_url, "--prefix", key_prefix]
    argv = [*where, "--game", GAME, "--count", "2", "--jobs", "2", "--budget", "5"]
    assert pool_cmd.main("fill-pool", argv, secrets=itertools.cycle(WON).__next__) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(f"{GAME} pool: 2")
    with pytest.raises(SystemExit) as done:
        server_main(["pool", *where])
    assert done.value.code == 0
    table = dict(line.split() for line in capsys.readouterr().out.splitlines()[1:])
    assert table == {
        "little-forty": "0",
        GAME: "2",
        "little-billie": "0",
        "double-canfield-40": "0",
    }


def test_up_to_adds_what_the_pool_lacks(
    redis_url: str, key_prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--redis", redis_url, "--prefix", key_prefix, "--game", GAME, "--up-to", "2"]
    secrets = itertools.cycle(WON).__next__
    assert pool_cmd.main("fill-pool", [*argv, "--budget", "5"], secrets=secrets) == 0
    assert pool_cmd.main("fill-pool", argv, secrets=_pinned()) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"added 0 of 0 deals tried; {GAME} pool: 2"


@pytest.mark.parametrize(
    "bad", [["--count", "0"], ["--count", "1", "--jobs", "0"], ["--up-to", "0"]]
)
def test_bad_arguments_are_refused(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        pool_cmd.main("fill-pool", ["--game", GAME, *bad])
    assert "at least 1" in capsys.readouterr().err
