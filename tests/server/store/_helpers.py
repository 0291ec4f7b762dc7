"""What the store tests share: a room whose race has begun, a move, the feed's next item."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from server.store import CommitResult, Duplicate, FeedEvent, MoveCommit, RoomFeed, RoomGap, Store

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
        MoveCommit(
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
    )


async def version_of(store: Store, seat: int) -> int:
    record = await store.load_player(CODE, seat)
    assert record is not None
    return record.version


Items = asyncio.Queue[FeedEvent | RoomGap]


def open_feed(store: Store) -> tuple[RoomFeed, Items]:
    """`store`'s feed, with the batches it hands out queued one item at a time."""
    items: Items = asyncio.Queue()

    def take(batch: list[FeedEvent | RoomGap]) -> None:
        for item in batch:
            items.put_nowait(item)

    return store.feed(take), items


async def next_item(items: Items) -> FeedEvent | RoomGap:
    return await asyncio.wait_for(items.get(), timeout=10)
