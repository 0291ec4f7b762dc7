"""A race server that lets bots move as fast as a test likes, on the test's clock,
and a bot process run inside the test (`tests.bots.house._house.House`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.bots.house._house import House, fast_config


@pytest.fixture
async def race_server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    async with RaceServer(fast_config(), store, clock) as server:
        yield server


@pytest.fixture
def server_url(race_server: RaceServer) -> str:
    return f"ws://127.0.0.1:{race_server.port}"


@pytest.fixture
async def house(server_url: str) -> AsyncIterator[House]:
    running = House(server_url)
    yield running
    await running.end()
