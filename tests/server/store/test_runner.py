"""Script calls: group commit, one winner among racing writes, scripts reloaded after a flush."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from server.ops.embedded import EmbeddedValkey
from server.store import CommitResult, Store, VersionConflict
from tests.server.store._helpers import CODE, OpenStore, move, start

pytestmark = pytest.mark.every_backend


async def test_concurrent_commits_share_one_round_trip(store: Store) -> None:
    seats = 8
    await start(store, seats=seats)
    before = store.round_trips
    results = await asyncio.gather(*(move(store, s, 0, f"s{s}") for s in range(seats)))
    assert store.round_trips == before + 1
    assert sorted(r.seq for r in results) == list(range(2, seats + 2))
    assert all(r == CommitResult(r.seq, 1) for r in results)
    events = await store.events_since(CODE, 1)
    assert events is not None
    assert [seq for seq, _ in events] == list(range(2, seats + 2))


async def test_one_of_many_racing_writes_wins(store: Store) -> None:
    await start(store)
    outcomes = await asyncio.gather(
        *(move(store, 0, 0, f"m{n}") for n in range(10)), return_exceptions=True
    )
    assert sum(isinstance(o, CommitResult) for o in outcomes) == 1
    assert sum(isinstance(o, VersionConflict) for o in outcomes) == 9


async def test_without_grouping_every_call_is_a_round_trip(open_store: OpenStore) -> None:
    store = await open_store(group_commit=False)
    await start(store, seats=5)
    before = store.round_trips
    results = await asyncio.gather(*(move(store, s, 0, f"s{s}") for s in range(5)))
    assert store.round_trips == before + 5
    assert sorted(r.seq for r in results) == [2, 3, 4, 5, 6]


async def test_scripts_come_back_after_the_cache_is_flushed(
    private_valkey: EmbeddedValkey,
) -> None:
    store = await Store.connect(private_valkey.url)
    try:
        await start(store)
        client = Redis.from_url(private_valkey.url)
        await client.script_flush()
        await client.aclose()
        before = store.round_trips
        assert await move(store, 0, 0, "m1") == CommitResult(2, 1)
        assert store.round_trips == before + 3  # refused, scripts loaded, sent again
    finally:
        await store.close()


async def test_a_pipeline_whose_connection_is_lost_unanswered_is_sent_again(
    private_valkey: EmbeddedValkey,
) -> None:
    store = await Store.connect(private_valkey.url)
    admin = Redis.from_url(private_valkey.url)
    try:
        await start(store)
        await admin.client_pause(60_000, all=False)  # the commit waits, unanswered
        moving = asyncio.create_task(move(store, 0, 0, "m1"))
        for _ in range(2):
            await asyncio.sleep(0)  # the move queued, then its pipeline written
        assert await admin.client_kill_filter(_type="normal", skipme=True) >= 1
        await admin.client_unpause()
        assert await moving == CommitResult(2, 1)
    finally:
        await admin.aclose()
        await store.close()
