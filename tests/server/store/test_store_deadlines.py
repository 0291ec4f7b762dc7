"""The shared deadline set: written with the room, claimed once, leased, settled."""

from __future__ import annotations

import asyncio

import pytest

from server.store import NotFound, Store, VersionConflict
from tests.server.store._helpers import CODE, OpenStore, move, start

pytestmark = pytest.mark.every_backend


async def test_saving_a_room_writes_or_drops_its_deadline(store: Store) -> None:
    await store.create_room(CODE, b"lobby")
    assert await store.deadline_of(CODE) is None
    await store.save_room(CODE, 0, b"countdown", [b"countdown"], deadline_ms=5_000)
    assert await store.deadline_of(CODE) == 5_000
    await store.start_race(CODE, 1, b"racing", {0: b"deal"}, start_at_ms=5_000, deadline_ms=9_000)
    assert await store.deadline_of(CODE) == 9_000
    await store.save_room(CODE, 2, b"finished", [b"over"])
    assert await store.deadline_of(CODE) is None


async def test_a_refused_save_leaves_the_deadline_alone(store: Store) -> None:
    await store.create_room(CODE, b"lobby")
    await store.save_room(CODE, 0, b"countdown", deadline_ms=5_000)
    with pytest.raises(VersionConflict):
        await store.save_room(CODE, 0, b"late", deadline_ms=1)
    assert await store.deadline_of(CODE) == 5_000


async def test_only_due_deadlines_are_claimed_and_each_by_one_claimer(
    store: Store, open_store: OpenStore
) -> None:
    other = await open_store()
    for number, due in enumerate((1_000, 2_000, 3_000)):
        code = f"ROOM{number}"
        await store.create_room(code, b"lobby")
        await store.save_room(code, 0, b"countdown", deadline_ms=due)
    claims = await asyncio.gather(
        store.claim_deadlines(2_000, 60_000), other.claim_deadlines(2_000, 60_000)
    )
    assert sorted(claims[0] + claims[1]) == ["ROOM0", "ROOM1"]
    assert await store.claim_deadlines(2_500, 60_000) == []
    assert await store.claim_deadlines(3_000, 60_000) == ["ROOM2"]


async def test_a_claim_never_settled_comes_due_again_at_its_retry_time(store: Store) -> None:
    await store.create_room(CODE, b"lobby")
    await store.save_room(CODE, 0, b"countdown", deadline_ms=1_000)
    assert await store.claim_deadlines(1_000, 11_000) == [CODE]
    assert await store.claim_deadlines(10_999, 21_000) == []
    assert await store.claim_deadlines(11_000, 21_000) == [CODE]


async def test_settling_is_guarded_by_the_room_version(store: Store) -> None:
    await start(store)
    assert await store.settle_deadline(CODE, 1, 8_000)
    assert await store.deadline_of(CODE) == 8_000
    assert not await store.settle_deadline(CODE, 0, 1)
    assert await store.deadline_of(CODE) == 8_000
    assert await store.settle_deadline(CODE, 1, None)
    assert await store.deadline_of(CODE) is None


async def test_settling_a_room_that_is_gone_drops_its_entry(store: Store) -> None:
    await store.create_room(CODE, b"lobby")
    await store.save_room(CODE, 0, b"countdown", deadline_ms=1_000)
    await store.expire_room(CODE, 0)
    assert await store.settle_deadline(CODE, 1, 5_000)
    assert await store.deadline_of(CODE) is None


async def test_a_guarded_finish_refuses_a_player_who_moved(store: Store) -> None:
    await start(store)
    await move(store, 0, 0, "m1")
    with pytest.raises(VersionConflict):
        await store.finish_player(CODE, 0, "timeout", 3_000, expected_version=0)
    assert await store.finish_player(CODE, 0, "timeout", 3_000, expected_version=1) is not None
    with pytest.raises(NotFound):
        await store.finish_player(CODE, 5, "timeout", 3_000, expected_version=0)
