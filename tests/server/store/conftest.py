"""Fixtures of the store tests (the stores themselves come from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[Redis]:
    """A plain client, to look at what the store left in Redis."""
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()
