"""Fixtures of the store and embedded-server tests that need a Valkey of their own."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app import RaceServer
from server.clock import Clock, ManualClock
from server.config import Config
from server.ops.embedded import EmbeddedValkey
from server.store import Store
from tests.server._client import Client


@pytest.fixture
def private_valkey(tmp_path: Path) -> Iterator[EmbeddedValkey]:
    """A started Valkey only this test uses, so it may restart or flush it."""
    valkey = EmbeddedValkey(tmp_path / "valkey")
    valkey.start()
    yield valkey
    valkey.stop()


@contextlib.asynccontextmanager
async def opened_clients(
    open_one: Callable[[str, Clock], Awaitable[Client]], server: RaceServer
) -> AsyncIterator[Callable[[], Awaitable[Client]]]:
    """A factory of connections to `server` made by `open_one`; all are closed at the end."""
    clients: list[Client] = []

    async def open_() -> Client:
        client = await open_one(f"ws://127.0.0.1:{server.port}", server.clock)
        clients.append(client)
        return client

    yield open_
    for client in clients:
        await client.close()


@pytest.fixture
async def connect(race_server: RaceServer) -> AsyncIterator[Callable[[], Awaitable[Client]]]:
    """Opens clients (hello done) on the test's server; all are closed afterwards."""
    async with opened_clients(Client.open, race_server) as open_:
        yield open_


ServerFactory = Callable[..., Awaitable[RaceServer]]


@pytest.fixture
async def start_server(clock: ManualClock, analysis_workers: int) -> AsyncIterator[ServerFactory]:
    """Starts race servers over a given store with settings of the test's choosing.

    ``await start_server(store, rate_per_s=1000)`` runs a server with those
    `Config` fields on any free port, on the test's clock; every server still
    running is stopped afterwards.
    """
    servers: list[RaceServer] = []

    async def start(store: Store, **settings: Any) -> RaceServer:
        chosen = {"port": 0, "analysis_workers": analysis_workers, **settings}
        server = RaceServer(Config(**chosen), store, clock)
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.stop()
