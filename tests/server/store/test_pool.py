"""The pool of winnable deals: seeds go in, each comes out once, only counts are told."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from server.store import Store
from tests.server.store._helpers import OpenStore

pytestmark = pytest.mark.every_backend

SEEDS = [bytes([n]) * 32 for n in range(10)]


async def test_seeds_added_are_counted_per_game(store: Store) -> None:
    assert await store.add_winnable("little-milligan", SEEDS[:3]) == 3
    assert await store.add_winnable("little-milligan", SEEDS[2:4]) == 1
    assert await store.add_winnable("little-forty", []) == 0
    counts = await store.winnable_counts(["little-forty", "little-milligan"])
    assert counts == {"little-forty": 0, "little-milligan": 4}


async def test_every_seed_is_drawn_once_then_the_pool_is_empty(store: Store) -> None:
    await store.add_winnable("little-billie", SEEDS[:3])
    drawn = [await store.draw_winnable("little-billie") for _ in range(4)]
    assert sorted(seed for seed in drawn if seed is not None) == SEEDS[:3]
    assert drawn[3] is None
    assert await store.winnable_counts(["little-billie"]) == {"little-billie": 0}


async def test_draws_at_once_from_two_stores_never_share_a_seed(
    store: Store, open_store: OpenStore
) -> None:
    other = await open_store()
    await store.add_winnable("little-forty", SEEDS)
    draws = [s.draw_winnable("little-forty") for _ in range(8) for s in (store, other)]
    drawn = await asyncio.gather(*draws)
    seeds = [seed for seed in drawn if seed is not None]
    assert len(seeds) == len(set(seeds)) == len(SEEDS)
    assert drawn.count(None) == 16 - len(SEEDS)


async def test_pools_of_two_games_are_apart(store: Store, raw: Redis, key_prefix: str) -> None:
    await store.add_winnable("little-forty", SEEDS[:1])
    assert await store.draw_winnable("little-milligan") is None
    assert await raw.smembers(f"{key_prefix}winnable:little-forty") == {SEEDS[0]}
