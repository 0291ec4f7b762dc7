"""Redis being unreachable or refusing writes reaches callers as `StoreUnavailable`, and
the store works again once Redis is back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis import exceptions
from redis.asyncio import Redis

from server.ops.embedded import EmbeddedValkey
from server.store import CommitResult, Store, StoreUnavailable
from server.store._edge import translated
from tests.server.store._helpers import CODE, move, start

pytestmark = pytest.mark.every_backend


@pytest.fixture
async def outage_store(private_valkey: EmbeddedValkey) -> AsyncIterator[Store]:
    """A store on a Valkey of its own that gives up at once when Redis is away."""
    async with await Store.connect(private_valkey.url, retries=0) as store:
        yield store


@pytest.mark.parametrize(
    "error",
    [
        exceptions.ConnectionError("refused"),
        exceptions.BusyLoadingError("loading"),
        exceptions.TimeoutError("timed out"),
        exceptions.ReadOnlyError("replica"),
        exceptions.OutOfMemoryError("full"),
        exceptions.TryAgainError("again"),
    ],
)
async def test_availability_errors_become_store_unavailable(error: Exception) -> None:
    async def fails() -> None:
        raise error

    with pytest.raises(StoreUnavailable) as raised:
        await translated(fails)()
    assert raised.value.__cause__ is error


async def test_other_redis_errors_go_through_unchanged() -> None:
    async def fails() -> None:
        raise exceptions.ResponseError("WRONGTYPE")

    with pytest.raises(exceptions.ResponseError):
        await translated(fails)()


async def test_verbs_fail_while_redis_is_down_and_work_after(
    outage_store: Store, private_valkey: EmbeddedValkey
) -> None:
    await start(outage_store)
    await asyncio.to_thread(private_valkey.stop)
    with pytest.raises(StoreUnavailable):
        await outage_store.load_room(CODE)
    with pytest.raises(StoreUnavailable):
        await move(outage_store, 0, 0, "m1")
    with pytest.raises(StoreUnavailable):
        await outage_store.bind_token("a" * 64, CODE, 0)

    await asyncio.to_thread(private_valkey.start)
    assert await move(outage_store, 0, 0, "m1") == CommitResult(2, 1)


async def test_writes_to_a_read_only_replica_are_unavailable(
    outage_store: Store, private_valkey: EmbeddedValkey
) -> None:
    await start(outage_store)
    admin = Redis.from_url(private_valkey.url)
    try:
        await admin.replicaof("127.0.0.1", "1")  # a primary that never answers
        with pytest.raises(StoreUnavailable):
            await move(outage_store, 0, 0, "m1")
        assert (await outage_store.load_room(CODE)) is not None
        await admin.replicaof("NO", "ONE")
        assert await move(outage_store, 0, 0, "m1") == CommitResult(2, 1)
    finally:
        await admin.aclose()
