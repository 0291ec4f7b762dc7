"""A real race server for the session tests, over the test's store (see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.store import Store


@pytest.fixture
async def race_server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    """A race server on 127.0.0.1, any free port, on the test's clock."""
    async with RaceServer(Config(port=0), store, clock) as server:
        yield server


@pytest.fixture
def server_url(race_server: RaceServer) -> str:
    return f"ws://127.0.0.1:{race_server.port}"
