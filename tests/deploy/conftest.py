"""Fixtures of the deployment tests: real Redis, server and proxy processes, stopped by pid."""

from __future__ import annotations

from collections.abc import Callable, Iterator
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

StartServers = Callable[..., list[tuple[Running, int]]]


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Processes]:
    """Starts processes for the test; every one still running is stopped at the end."""
    with processes(tmp_path) as group:
        yield group


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
