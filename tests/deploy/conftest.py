"""Fixtures of the deployment tests: real Redis, server and proxy processes, stopped by pid."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from functools import partial
from pathlib import Path

import pytest

from tests.deploy._processes import (
    Processes,
    RedisServer,
    Running,
    free_port,
    free_ports,
    healthy,
    processes,
    server_command,
)
from tests.deploy._racer import Racer, seat_racers
from tests.server._client import Client


class Clients:
    """Opens clients and seats racers; every connection still open is closed at the end."""

    def __init__(self) -> None:
        self.opened: list[Client] = []
        self.racers: list[Racer] = []

    async def open(self, port: int) -> Client:
        client = await Client.open(f"ws://127.0.0.1:{port}")
        self.opened.append(client)
        return client

    async def seat(self, ports: Sequence[int]) -> list[Racer]:
        """A racer on each port (the first one hosts), in a race that has started."""
        return await self.seat_clients([await self.open(port) for port in ports])

    async def seat_clients(self, opened: Sequence[Client]) -> list[Racer]:
        racers = await seat_racers(opened)
        self.racers += racers
        return racers

    async def close(self) -> None:
        for client in [*self.opened, *(racer.client for racer in self.racers)]:
            await client.close()


StartServers = Callable[..., list[tuple[Running, int]]]


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Processes]:
    """Starts processes for the test; every one still running is stopped at the end."""
    with processes(tmp_path) as group:
        yield group


@pytest.fixture
async def clients(procs: Processes) -> AsyncIterator[Clients]:
    """Clients of the test, closed before its processes are stopped."""
    opened = Clients()
    yield opened
    await opened.close()


@pytest.fixture
def redis_server(procs: Processes, tmp_path: Path) -> RedisServer:
    """A started ``redis-server`` of this test alone, its append-only file in a temp directory."""
    directory = tmp_path / "redis"
    directory.mkdir()
    redis = RedisServer(procs, free_port(), directory)
    redis.start()
    return redis


@pytest.fixture
def start_servers(procs: Processes) -> StartServers:
    """``start_servers(count, *options)`` runs ``solrace-server`` processes on free ports.

    They start side by side; it returns (process, port) pairs once each one's
    ``/healthz`` answers.
    """

    def start(count: int, *options: str) -> list[tuple[Running, int]]:
        ports = free_ports(count)
        started = [procs.start("server", server_command(port, *options)) for port in ports]
        for running, port in zip(started, ports, strict=True):
            procs.check_running(running, partial(healthy, port), f"solrace-server on {port}")
        return list(zip(started, ports, strict=True))

    return start
