"""A real race server for the session tests, over the test's store (see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.store import Store


@pytest.fixture
def analysis_workers() -> int:
    """Solver processes of the test's server: none, unless a test module that
    needs verdicts, hints or dead-end checks overrides this fixture."""
    return 0


@pytest.fixture
async def race_server(
    store: Store, clock: ManualClock, analysis_workers: int
) -> AsyncIterator[RaceServer]:
    """A race server on 127.0.0.1, any free port, on the test's clock."""
    config = Config(port=0, analysis_workers=analysis_workers)
    async with RaceServer(config, store, clock) as server:
        yield server


@pytest.fixture
def server_url(race_server: RaceServer) -> str:
    return f"ws://127.0.0.1:{race_server.port}"
