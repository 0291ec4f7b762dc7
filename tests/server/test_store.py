"""The store against a real server: every method, its refusals, group commit, the feed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from redis.asyncio import Redis

from server.embedded import EmbeddedValkey
from server.store import (
    CommitResult,
    Duplicate,
    LoggedMove,
    NotFound,
    PlayerFinished,
    PlayerRecord,
    RoomEvent,
    RoomFeed,
    RoomGap,
    RoomRecord,
    Store,
    TokenBinding,
    VersionConflict,
)

pytestmark = pytest.mark.every_backend

OpenStore = Callable[..., Awaitable[Store]]  # the open_store fixture (tests/conftest.py)

CODE = "QX7K2M"
START_MS = 1_000


async def start(store: Store, seats: int = 2, code: str = CODE) -> None:
    """A room whose race has begun: seq 1 is the start event, room version 1."""
    assert await store.create_room(code, b"lobby")
    players = {seat: f"deal {seat}".encode() for seat in range(seats)}
    await store.start_race(code, 0, b"racing", players, [b"start"], start_at_ms=START_MS)


async def move(
    store: Store,
    seat: int,
    version: int,
    move_id: str,
    *,
    progress: int = 0,
    outcome: str = "playing",
    now_ms: int = 2_000,
) -> CommitResult | Duplicate:
    return await store.commit_move(
        CODE,
        seat,
        version,
        f"state {seat}.{version + 1}".encode(),
        move_text="t1 t2",
        move_id=move_id,
        now_ms=now_ms,
        progress=progress,
        outcome=outcome,
        event=f"moved {move_id}".encode(),
    )


async def version_of(store: Store, seat: int) -> int:
    record = await store.load_player(CODE, seat)
    assert record is not None
    return record.version


async def next_item(feed: RoomFeed) -> RoomEvent | RoomGap:
    return await asyncio.wait_for(feed.get(), timeout=10)


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[Redis]:
    """A plain client, to look at what the store left in Redis."""
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


# Rooms


async def test_create_and_load_room(store: Store) -> None:
    assert await store.load_room(CODE) is None
    assert await store.create_room(CODE, b"lobby")
    assert not await store.create_room(CODE, b"other")
    assert await store.load_room(CODE) == RoomRecord(b"lobby", 0, 0)
    assert await store.room_count() == 1


async def test_save_room_bumps_version_and_numbers_events(store: Store) -> None:
    await store.create_room(CODE, b"lobby")
    assert await store.save_room(CODE, 0, b"v1", [b"joined", b"ready"]) == [1, 2]
    assert await store.save_room(CODE, 1, b"v2") == []
    assert await store.save_room(CODE, 2, b"v3", [b"left"]) == [3]
    assert await store.load_room(CODE) == RoomRecord(b"v3", 3, 3)


async def test_save_room_refuses_stale_version_and_missing_room(store: Store) -> None:
    await store.create_room(CODE, b"lobby")
    await store.save_room(CODE, 0, b"v1", [b"joined"])
    with pytest.raises(VersionConflict) as conflict:
        await store.save_room(CODE, 0, b"late", [b"lost"])
    assert conflict.value.current == 1
    assert await store.load_room(CODE) == RoomRecord(b"v1", 1, 1)
    assert await store.events_since(CODE, 0) == [(1, b"joined")]
    with pytest.raises(NotFound):
        await store.save_room("NOROOM", 0, b"x")


async def test_events_since(store: Store) -> None:
    await store.create_room(CODE, b"lobby")
    await store.save_room(CODE, 0, b"v1", [b"a", b"b", b"c"])
    assert await store.events_since(CODE, 0) == [(1, b"a"), (2, b"b"), (3, b"c")]
    assert await store.events_since(CODE, 1, limit=1) == [(2, b"b")]
    assert await store.events_since(CODE, 3) == []
    assert await store.events_since(CODE, 4) is None
    assert await store.events_since("NOROOM", 0) is None


async def test_trimmed_stream_cannot_replay(open_store: OpenStore) -> None:
    store = await open_store(stream_maxlen=5)
    await store.create_room(CODE, b"lobby")
    await store.save_room(CODE, 0, b"v1", [b"e%d" % n for n in range(1, 301)])
    assert await store.events_since(CODE, 0) is None
    assert await store.events_since(CODE, 299) == [(300, b"e300")]


# Games


async def test_start_race_gives_each_seat_a_fresh_game(store: Store) -> None:
    await start(store, seats=3)
    assert await store.load_room(CODE) == RoomRecord(b"racing", 1, 1)
    expected = PlayerRecord(b"deal 1", 0, 0, START_MS, "playing", None)
    assert await store.load_player(CODE, 1) == expected
    assert await move(store, 2, 0, "m1") == CommitResult(2, 1)

    seqs = await store.start_race(CODE, 1, b"rematch", {0: b"new 0", 1: b"new 1"}, start_at_ms=9)
    assert seqs == []
    assert await store.load_player(CODE, 2) is None
    assert await store.move_log(CODE, 2) == []
    assert await store.load_player(CODE, 0) == PlayerRecord(b"new 0", 0, 0, 9, "playing", None)
    with pytest.raises(VersionConflict):
        await store.start_race(CODE, 1, b"again", {0: b"x"}, start_at_ms=9)


async def test_commit_move_stores_state_log_and_event(store: Store) -> None:
    await start(store)
    assert await move(store, 0, 0, "m1", progress=1, now_ms=2_500) == CommitResult(2, 1)
    assert await move(store, 0, 1, "m2", progress=1, now_ms=3_000) == CommitResult(3, 2)
    record = await store.load_player(CODE, 0)
    assert record == PlayerRecord(b"state 0.2", 2, 1, 2_500, "playing", None)
    assert record.moves == 2
    assert await store.move_log(CODE, 0) == [
        LoggedMove("t1 t2", 2_500, "m1"),
        LoggedMove("t1 t2", 3_000, "m2"),
    ]
    assert await store.events_since(CODE, 1) == [(2, b"moved m1"), (3, b"moved m2")]
    assert await store.load_player(CODE, 1) == PlayerRecord(
        b"deal 1", 0, 0, START_MS, "playing", None
    )


async def test_retried_move_id_returns_the_stored_result(store: Store) -> None:
    await start(store)
    assert await move(store, 0, 0, "m1") == CommitResult(2, 1)
    assert await move(store, 1, 0, "m1") == CommitResult(3, 1)
    assert await move(store, 0, 0, "m1") == Duplicate(2, 1)
    assert await move(store, 0, 1, "m1") == Duplicate(2, 1)
    assert await version_of(store, 0) == 1
    assert len(await store.move_log(CODE, 0)) == 1
    assert await store.events_since(CODE, 3) == []


async def test_stale_move_is_refused_with_the_current_version(store: Store) -> None:
    await start(store)
    await move(store, 0, 0, "m1")
    with pytest.raises(VersionConflict) as conflict:
        await move(store, 0, 0, "m2")
    assert conflict.value.current == 1
    assert len(await store.move_log(CODE, 0)) == 1
    with pytest.raises(NotFound):
        await move(store, 5, 0, "m3")


async def test_winning_move_ends_the_players_race(store: Store) -> None:
    await start(store)
    assert await move(store, 0, 0, "m1", progress=52, outcome="won", now_ms=7_000)
    record = await store.load_player(CODE, 0)
    assert record == PlayerRecord(b"state 0.1", 1, 52, 7_000, "won", 7_000)
    with pytest.raises(PlayerFinished):
        await move(store, 0, 1, "m2")


async def test_finish_player(store: Store) -> None:
    await start(store)
    assert await store.finish_player(CODE, 1, "resigned", 4_000, [b"resigned"]) == [2]
    assert await store.finish_player(CODE, 1, "timeout", 5_000, [b"late"]) is None
    record = await store.load_player(CODE, 1)
    assert record is not None
    assert (record.outcome, record.finished_at_ms) == ("resigned", 4_000)
    with pytest.raises(PlayerFinished):
        await move(store, 1, 0, "m1")
    with pytest.raises(NotFound):
        await store.finish_player(CODE, 7, "timeout", 5_000)
    with pytest.raises(ValueError, match="playing"):
        await store.finish_player(CODE, 0, "playing", 5_000)


# Group commit


async def test_concurrent_commits_share_one_round_trip(store: Store) -> None:
    seats = 40
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


# Tokens and expiry


async def test_tokens(store: Store) -> None:
    await start(store)
    await store.bind_token("a" * 64, CODE, 1)
    await store.bind_token("b" * 64, CODE, None)
    assert await store.find_token("a" * 64) == TokenBinding(CODE, 1)
    assert await store.find_token("b" * 64) == TokenBinding(CODE, None)
    assert await store.find_token("c" * 64) is None
    await store.unbind_token("a" * 64, CODE)
    assert await store.find_token("a" * 64) is None


async def test_expire_room_covers_every_key(store: Store, raw: Redis, key_prefix: str) -> None:
    await start(store)
    await move(store, 0, 0, "m1")
    await store.bind_token("a" * 64, CODE, 0)
    await store.expire_room(CODE, 600)
    await store.bind_token("b" * 64, CODE, None)
    keys = [k async for k in raw.scan_iter(match=key_prefix + "*") if not k.endswith(b"rooms")]
    assert len(keys) == 10  # room, events, seats, tokens, 2 games, log, ids, 2 tokens
    assert all(0 < ttl <= 600 for ttl in [await raw.ttl(key) for key in keys])

    await store.expire_room(CODE, None)
    assert [await raw.ttl(key) for key in keys] == [-1] * len(keys)

    await store.expire_room(CODE, 0)
    assert await store.load_room(CODE) is None
    assert await store.find_token("b" * 64) is None
    assert await store.room_count() == 0
    assert await store.create_room(CODE, b"again")
    assert await store.save_room(CODE, 0, b"v1", [b"first"]) == [1]


# Feed


async def test_feed_delivers_to_every_process_in_order(store: Store, open_store: OpenStore) -> None:
    await start(store, seats=4)
    feeds = [(await open_store()).feed() for _ in range(2)]
    for feed in feeds:
        await feed.watch(CODE, 1)
    await asyncio.gather(*(move(store, s, 0, f"s{s}") for s in range(4)))
    await move(store, 0, 1, "last")
    for feed in feeds:
        items = [await next_item(feed) for _ in range(5)]
        assert [item.seq for item in items if isinstance(item, RoomEvent)] == [2, 3, 4, 5, 6]
        assert items[-1] == RoomEvent(CODE, 6, b"moved last")


async def test_feed_starts_after_the_snapshot_seq(store: Store, open_store: OpenStore) -> None:
    await start(store)
    await move(store, 0, 0, "m1")
    await move(store, 0, 1, "m2")
    feed = (await open_store()).feed()
    await feed.watch(CODE, 2)
    assert await next_item(feed) == RoomEvent(CODE, 3, b"moved m2")
    await feed.unwatch(CODE)
    assert feed.rooms == frozenset()
    await move(store, 0, 2, "m3")
    await feed.watch(CODE, 4)
    await move(store, 0, 3, "m4")
    assert await next_item(feed) == RoomEvent(CODE, 5, b"moved m4")


async def test_feed_reports_a_gap_when_the_stream_was_trimmed(open_store: OpenStore) -> None:
    store = await open_store(stream_maxlen=5)
    await store.create_room(CODE, b"lobby")
    await store.save_room(CODE, 0, b"v1", [b"old"] * 300)
    feed = (await open_store()).feed()
    await feed.watch(CODE, 0)
    assert await next_item(feed) == RoomGap(CODE)
    await store.save_room(CODE, 1, b"v2", [b"new"])
    assert await next_item(feed) == RoomEvent(CODE, 301, b"new")


async def test_restart_keeps_rooms_and_the_feed_resumes(private_valkey: EmbeddedValkey) -> None:
    store = await Store.connect(private_valkey.url)
    listener = await Store.connect(private_valkey.url)
    try:
        await start(store)
        feed = listener.feed()
        await feed.watch(CODE, 1)
        await move(store, 0, 0, "m1")
        assert await next_item(feed) == RoomEvent(CODE, 2, b"moved m1")

        await asyncio.to_thread(private_valkey.stop)
        await asyncio.to_thread(private_valkey.start)

        assert await version_of(store, 0) == 1
        assert await move(store, 1, 0, "m2") == CommitResult(3, 1)
        assert await next_item(feed) == RoomEvent(CODE, 3, b"moved m2")
        assert await move(store, 0, 1, "m3") == CommitResult(4, 2)
        assert await next_item(feed) == RoomEvent(CODE, 4, b"moved m3")
    finally:
        await listener.close()
        await store.close()
