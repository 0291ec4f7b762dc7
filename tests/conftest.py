"""Fixtures for the server tests: a real Valkey, and the machine's Redis when CI has one.

`redis_url` runs a test against the session's embedded Valkey. A test marked
``every_backend`` (the store's own tests, one whole race) runs against it and, when
SOLRACE_TEST_REDIS_URL is set, against that Redis too ("redis"). Each test gets its
own key prefix, and every key under it is deleted afterwards, so a shared Redis is
left as it was found. `clock` is a manual clock for the servers a test starts: time
stands still until the test advances it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.ops.embedded import EmbeddedValkey
from server.store import Store

OpenStore = Callable[..., Awaitable[Store]]

_MACHINE_REDIS_URL = os.environ.get("SOLRACE_TEST_REDIS_URL", "")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests marked ``every_backend`` also run on the machine's Redis, when there is one."""
    marked = metafunc.definition.get_closest_marker("every_backend") is not None
    if marked and _MACHINE_REDIS_URL and "redis_url" in metafunc.fixturenames:
        metafunc.parametrize("redis_url", ["valkey", "redis"], indirect=True)


@pytest.fixture(scope="session")
def embedded_valkey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedValkey]:
    """One embedded Valkey for the whole session, in a temporary directory."""
    valkey = EmbeddedValkey(Path(tmp_path_factory.mktemp("valkey")))
    valkey.start()
    yield valkey
    valkey.stop()


@pytest.fixture
def redis_url(request: pytest.FixtureRequest) -> str:
    if getattr(request, "param", "valkey") == "redis":
        return _MACHINE_REDIS_URL
    valkey: EmbeddedValkey = request.getfixturevalue("embedded_valkey")
    return valkey.url


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def analysis_workers(request: pytest.FixtureRequest) -> int:
    """Solver processes of the test's server: one for tests marked
    ``solver_workers`` (verdicts, hints, dead-end checks), else none."""
    return 1 if request.node.get_closest_marker("solver_workers") else 0


@pytest.fixture
async def race_server(
    store: Store, clock: ManualClock, analysis_workers: int
) -> AsyncIterator[RaceServer]:
    """A race server on 127.0.0.1, any free port (`Config` defaults otherwise),
    over the test's store, on the test's clock."""
    config = Config(port=0, analysis_workers=analysis_workers)
    async with RaceServer(config, store, clock) as server:
        yield server


@pytest.fixture
async def key_prefix(redis_url: str) -> AsyncIterator[str]:
    """A key prefix of this test alone; its keys are deleted when the test ends."""
    prefix = f"solrace-test:{uuid.uuid4().hex}:"
    yield prefix
    client = Redis.from_url(redis_url)
    try:
        keys = [key async for key in client.scan_iter(match=prefix + "*", count=1000)]
        if keys:
            await client.unlink(*keys)
    finally:
        await client.aclose()


@pytest.fixture
async def open_store(redis_url: str, key_prefix: str) -> AsyncIterator[OpenStore]:
    """Opens more stores on the test's prefix (another server process, other options)."""
    stores: list[Store] = []

    async def open_(**options: Any) -> Store:
        store = await Store.connect(redis_url, key_prefix, **options)
        stores.append(store)
        return store

    yield open_
    for store in stores:
        await store.close()


@pytest.fixture
async def store(open_store: OpenStore) -> Store:
    return await open_store()
