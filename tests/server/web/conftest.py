"""The records tests' accounts: written into the test's Valkey before its server reads them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from server.store import Store
from server.store._keys import StoreKeys
from tests.server.web._records import Records, seed


@pytest.fixture
async def records(store: Store, redis_url: str, key_prefix: str) -> AsyncIterator[Records]:
    redis = Redis.from_url(redis_url)
    try:
        seeded = Records(store, redis, StoreKeys(key_prefix))
        await seed(seeded)
        yield seeded
    finally:
        await redis.aclose()
