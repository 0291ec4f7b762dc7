"""A bot process run inside a test: commands fed as lines, its answers read back.

Its bots pause for nothing unless the test holds them (`Pacer`), and its
``load`` reports come when the test ticks (`House.tick`), so no test waits.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from bots.house.process import HouseProcess
from protocol import CreateRoom, JoinRoom, Settings
from server.config import Config
from tests.server._client import Client

TIMEOUT_S = 30.0
RSS = 123_456_789


def fast_config(port: int = 0) -> Config:
    """A server's settings with rate limits no bot of a test reaches."""
    return Config(port=port, rate_per_s=10_000, rate_burst=10_000)


class Pacer:
    """The bots' sleep: no wait while open, held while the test closes it."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.open.set()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)
        await self.open.wait()


class House:
    def __init__(self, url: str) -> None:
        self.commands: asyncio.Queue[str | None] = asyncio.Queue()
        self.ticks: asyncio.Queue[None] = asyncio.Queue()
        self.said: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()
        self.pacer = Pacer()
        self.process = HouseProcess(
            url, self._write, tick=self.ticks.get, memory=lambda: RSS, sleep=self.pacer.sleep
        )
        self.task = asyncio.create_task(self.process.run(self._lines()))

    def send(self, **fields: object) -> None:
        self.commands.put_nowait(json.dumps(fields))

    def send_line(self, line: str) -> None:
        self.commands.put_nowait(line)

    def drive(self, seat: str, token: str, level: str = "good", seed: int = 1) -> None:
        self.send(op="drive", seat=seat, token=token, level=level, seed=seed)

    def tick(self) -> None:
        self.ticks.put_nowait(None)

    async def wait_for(
        self, op: str, where: Callable[[dict[str, Any]], bool] = lambda _: True, start: int = 0
    ) -> dict[str, Any]:
        """The first line of ``op`` from ``start`` on that matches ``where``."""
        async with asyncio.timeout(TIMEOUT_S):
            while True:
                for line in self.said[start:]:
                    if line["op"] == op and where(line):
                        return line
                self.arrived.clear()
                await self.arrived.wait()

    async def end(self) -> None:
        """The end of the input; the process drops every seat and returns."""
        self.commands.put_nowait(None)
        async with asyncio.timeout(TIMEOUT_S):
            await self.task

    def _write(self, line: str) -> None:
        self.said.append(json.loads(line))
        self.arrived.set()

    async def _lines(self) -> AsyncIterator[str]:
        while (line := await self.commands.get()) is not None:
            yield line


async def room_with_a_bot_seat(
    url: str, clock: Any, level: str = "good", variant: str = "little-milligan", deal: int = 2
) -> tuple[Client, Client, str, str]:
    """A host in a new room of two seats, and a bot seat taken on another
    connection: the host, that connection, the seat's name and its token."""
    settings = Settings(max_players=2, countdown_s=1, time_limit_s=600, deal_number=deal)
    host = await Client.open(url, clock)
    created = await host.call(CreateRoom, variant=variant, name="Ada", settings=settings)
    seat = await Client.open(url, clock)
    joined = await seat.call(JoinRoom, code=created.code, name="Bot", bot=True, level=level)
    assert joined.type == "joined", joined
    return host, seat, f"{joined.code}:{joined.seat}", joined.token
