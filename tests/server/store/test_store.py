"""The store's verbs against a real server: rooms, games, tokens, expiry, and refusals."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from server.ops.embedded import EmbeddedValkey
from server.store import (
    AlreadyFinished,
    CommitResult,
    Duplicate,
    LoggedMove,
    NotFound,
    PlayerRecord,
    RoomRecord,
    Store,
    StoreUnavailable,
    TokenBinding,
    VersionConflict,
)
from tests.server.store._helpers import CODE, START_MS, OpenStore, move, start, version_of

pytestmark = pytest.mark.every_backend

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
    with pytest.raises(AlreadyFinished):
        await move(store, 0, 1, "m2")


async def test_finish_player(store: Store) -> None:
    await start(store)
    assert await store.finish_player(CODE, 1, "resigned", 4_000, [b"resigned"]) == [2]
    assert await store.finish_player(CODE, 1, "timeout", 5_000, [b"late"]) is None
    record = await store.load_player(CODE, 1)
    assert record is not None
    assert (record.outcome, record.finished_at_ms) == ("resigned", 4_000)
    with pytest.raises(AlreadyFinished):
        await move(store, 1, 0, "m1")
    with pytest.raises(NotFound):
        await store.finish_player(CODE, 7, "timeout", 5_000)
    with pytest.raises(ValueError, match="playing"):
        await store.finish_player(CODE, 0, "playing", 5_000)


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
    assert len(keys) == 9  # room, events, tokens, 2 games, log, ids, 2 tokens
    assert all(0 < ttl <= 600 for ttl in [await raw.ttl(key) for key in keys])

    await store.expire_room(CODE, None)
    assert [await raw.ttl(key) for key in keys] == [-1] * len(keys)

    await store.expire_room(CODE, 0)
    assert await store.load_room(CODE) is None
    assert await store.find_token("b" * 64) is None
    assert await store.room_count() == 0
    assert await store.create_room(CODE, b"again")
    assert await store.save_room(CODE, 0, b"v1", [b"first"]) == [1]


# Lifecycle


async def test_the_store_is_an_async_context_manager(redis_url: str, key_prefix: str) -> None:
    async with await Store.connect(redis_url, key_prefix) as store:
        await start(store)
        assert await version_of(store, 0) == 0
    assert store.closed


async def test_concurrent_closes_all_return_after_writes_in_flight(store: Store) -> None:
    await start(store)
    moving = asyncio.create_task(move(store, 0, 0, "m1"))
    await asyncio.sleep(0)  # the move is queued for the next flush
    await asyncio.gather(store.close(), store.close())
    assert moving.done() and moving.result() == CommitResult(2, 1)
    assert store.closed
    await store.close()


async def test_close_gives_up_on_writes_redis_never_answers(
    private_valkey: EmbeddedValkey,
) -> None:
    store = await Store.connect(private_valkey.url, close_timeout_s=0.05)
    await start(store)
    admin = Redis.from_url(private_valkey.url)
    await admin.client_pause(60_000, all=False)  # writes wait
    try:
        moving = asyncio.create_task(move(store, 0, 0, "m1"))
        await asyncio.sleep(0)
        await store.close()
        with pytest.raises(StoreUnavailable):
            await moving
    finally:
        await admin.client_unpause()
        await admin.aclose()
