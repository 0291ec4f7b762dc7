"""The live feed: each process gets a room's events in order, across gaps and restarts."""

from __future__ import annotations

import asyncio

import pytest

from server.ops.embedded import EmbeddedValkey
from server.store import CommitResult, FeedEvent, RoomFeed, RoomGap, Store
from tests.server._proxy import RedisProxy
from tests.server.store._helpers import (
    CODE,
    Items,
    OpenStore,
    move,
    next_item,
    open_feed,
    start,
    version_of,
)

pytestmark = pytest.mark.every_backend


async def test_feed_delivers_to_every_process_in_order(store: Store, open_store: OpenStore) -> None:
    await start(store, seats=4)
    feeds = [open_feed(await open_store()) for _ in range(2)]
    for feed, _ in feeds:
        await feed.watch(CODE, 1)
    await asyncio.gather(*(move(store, s, 0, f"s{s}") for s in range(4)))
    await move(store, 0, 1, "last")
    for _, queued in feeds:
        items = [await next_item(queued) for _ in range(5)]
        assert [item.seq for item in items if isinstance(item, FeedEvent)] == [2, 3, 4, 5, 6]
        assert items[-1] == FeedEvent(CODE, 6, b"moved last")


async def test_feed_starts_after_the_snapshot_seq(store: Store, open_store: OpenStore) -> None:
    await start(store)
    await move(store, 0, 0, "m1")
    await move(store, 0, 1, "m2")
    feed, items = open_feed(await open_store())
    await feed.watch(CODE, 2)
    assert await next_item(items) == FeedEvent(CODE, 3, b"moved m2")
    await feed.unwatch(CODE)
    assert feed.rooms == frozenset()
    await move(store, 0, 2, "m3")
    await feed.watch(CODE, 4)
    await move(store, 0, 3, "m4")
    assert await next_item(items) == FeedEvent(CODE, 5, b"moved m4")


async def test_an_event_past_a_hole_waits_for_the_one_before_it(
    store: Store, open_store: OpenStore
) -> None:
    await start(store, seats=2)
    other = await open_store()
    feed, items = await _subscribed_feed(store, other)
    await store.remove_watcher(CODE)  # seqs 3 and 4 are handed over below, in reverse
    await move(other, 1, 1, "a")
    await move(other, 1, 2, "b")
    feed.own(CODE, 4, b"moved b")  # as when one's own commit returns before pub/sub brings 3
    feed.own(CODE, 3, b"moved a")
    assert await next_item(items) == FeedEvent(CODE, 3, b"moved a")
    assert await next_item(items) == FeedEvent(CODE, 4, b"moved b")


async def test_a_hole_pub_sub_does_not_fill_is_read_from_the_stream(
    store: Store, open_store: OpenStore
) -> None:
    await start(store, seats=2)
    other = await open_store()
    _, items = await _subscribed_feed(store, other)
    await store.remove_watcher(CODE)  # so the next event of `other` is not published here
    await move(other, 1, 1, "unheard")
    await move(store, 0, 0, "mine")
    assert await next_item(items) == FeedEvent(CODE, 3, b"moved unheard")
    assert await next_item(items) == FeedEvent(CODE, 4, b"moved mine")


async def _subscribed_feed(store: Store, other: Store) -> tuple[RoomFeed, Items]:
    """`store`'s feed, once it hears `other`'s events (seq 2 is one) by pub/sub."""
    feed, items = open_feed(store)
    await feed.watch(CODE, 1)
    await move(other, 1, 0, "theirs")
    assert await next_item(items) == FeedEvent(CODE, 2, b"moved theirs")
    return feed, items


async def test_feed_reports_a_gap_when_the_stream_was_trimmed(open_store: OpenStore) -> None:
    store = await open_store(stream_maxlen=5)
    await store.create_room(CODE, b"lobby")
    await store.save_room(CODE, 0, b"v1", [b"old"] * 300)
    feed, items = open_feed(await open_store())
    await feed.watch(CODE, 0)
    assert await next_item(items) == RoomGap(CODE)
    await store.save_room(CODE, 1, b"v2", [b"new"])
    assert await next_item(items) == FeedEvent(CODE, 301, b"new")


async def test_restart_keeps_rooms_and_the_feed_resumes(private_valkey: EmbeddedValkey) -> None:
    store = await Store.connect(private_valkey.url)
    listener = await Store.connect(private_valkey.url)
    try:
        await start(store)
        feed, items = open_feed(listener)
        await feed.watch(CODE, 1)
        await move(store, 0, 0, "m1")
        assert await next_item(items) == FeedEvent(CODE, 2, b"moved m1")

        await asyncio.to_thread(private_valkey.stop)
        await asyncio.to_thread(private_valkey.start)

        assert await version_of(store, 0) == 1
        assert await move(store, 1, 0, "m2") == CommitResult(3, 1)
        assert await next_item(items) == FeedEvent(CODE, 3, b"moved m2")
        assert await move(store, 0, 1, "m3") == CommitResult(4, 2)
        assert await next_item(items) == FeedEvent(CODE, 4, b"moved m3")
    finally:
        await listener.close()
        await store.close()


async def test_a_room_subscribed_again_is_reported_after_the_events_it_missed(
    store: Store, redis_url: str, key_prefix: str
) -> None:
    await start(store)
    proxy = RedisProxy(redis_url)
    through = await Store.connect(await proxy.start(), key_prefix, retries=1)
    try:
        seen: list[object] = []
        arrived = asyncio.Event()

        def note(what: object) -> None:
            seen.append(what)
            arrived.set()

        def take(batch: list[FeedEvent | RoomGap]) -> None:
            for item in batch:
                note(item)

        feed = through.feed(take, note)
        await feed.watch(CODE, 1)
        await move(store, 0, 0, "m1")
        await _until(arrived, seen, 1)
        await proxy.cut()
        while await store.listening({(CODE, through.process)}):
            pass
        await move(store, 0, 1, "missed")
        proxy.mend()
        await _until(arrived, seen, 3)
        assert seen == [FeedEvent(CODE, 2, b"moved m1"), FeedEvent(CODE, 3, b"moved missed"), CODE]
    finally:
        await through.close()
        await proxy.close()


async def _until(arrived: asyncio.Event, seen: list[object], count: int) -> None:
    async with asyncio.timeout(10):
        while len(seen) < count:
            arrived.clear()
            await arrived.wait()
