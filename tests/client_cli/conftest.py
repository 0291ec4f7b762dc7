"""A real race server for the session tests, over the test's store (see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from server.app import RaceServer
from server.config import Config
from server.store import Store


@pytest.fixture
async def race_server(store: Store) -> AsyncIterator[RaceServer]:
    """A race server on 127.0.0.1, any free port."""
    async with RaceServer(Config(port=0), store) as server:
        yield server


@pytest.fixture
def server_url(race_server: RaceServer) -> str:
    return f"ws://127.0.0.1:{race_server.port}"
