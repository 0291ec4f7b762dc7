"""Servers that play house bots in a test: the quick bot process, real Valkey."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.store import Store
from tests.server._client import Client

TIMEOUT_S = 30.0


def quick_bots(port: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "tests.server.house._quick_bots",
        "--server",
        f"ws://127.0.0.1:{port}",
    ]


async def house_server(store: Store, clock: ManualClock, **settings: Any) -> RaceServer:
    """A started server on any free port that plays house bots with the quick process,
    once its bot process is up."""
    chosen: dict[str, Any] = {
        "port": 0,
        "analysis_workers": 0,
        "bot_workers": 1,
        "rate_per_s": 10_000.0,
        "rate_burst": 10_000.0,
        **settings,
    }
    server = RaceServer(Config(**chosen), store, clock, bot_command=quick_bots)
    await server.start()
    house = server.services.house
    if house is not None:
        async with asyncio.timeout(TIMEOUT_S):
            await house.wait_available()
    return server


async def client(server: RaceServer) -> Client:
    return await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)
