"""Fixtures of the race-flow tests: the accounts a test seats, read from Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from tests.server.race_flow._records import Accounts


@pytest.fixture
async def accounts(redis_url: str, key_prefix: str) -> AsyncIterator[Accounts]:
    client = Redis.from_url(redis_url)
    yield Accounts(client, key_prefix)
    await client.aclose()
