"""The bot process: many house bots, one per seat the server hands it, over JSON lines.

Theory of operation: `HouseProcess.run` says ``up``, then reads the server's
commands one line at a time (`bots.house.control`). ``drive`` starts a
`HouseSeat` task for the seat (a seat driven already is dropped first: the
new token wins), ``drop`` cancels that task, which closes its connection
without leaving (the seat stays the room's), and ``stop`` or the end of the
input drops every seat and ends the run. A seat that ends by itself is
reported ``gone`` with its reason. Every `LOAD_EVERY_S` seconds (the
injected ``tick``) the process reports how many seats it plays and its
resident memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable

from bots.house.control import (
    ControlError,
    Drive,
    Drop,
    Stop,
    driving_line,
    gone_line,
    load_line,
    parse_command,
    up_line,
)
from bots.house.link import Sleep
from bots.house.memory import rss_bytes
from bots.house.seat import Decide, HouseSeat

LOAD_EVERY_S = 10.0

log = logging.getLogger(__name__)


async def every_load_period() -> None:
    await asyncio.sleep(LOAD_EVERY_S)


class HouseProcess:
    def __init__(
        self,
        url: str,
        write: Callable[[str], None],
        *,
        tick: Callable[[], Awaitable[None]] = every_load_period,
        memory: Callable[[], int] = rss_bytes,
        speed: float = 1.0,
        sleep: Sleep = asyncio.sleep,
        decide: Decide | None = None,
    ) -> None:
        """``write`` takes each line for the server; ``speed``, ``sleep`` and
        ``decide`` go to every seat (see `HouseSeat`)."""
        self.url, self.write, self.tick, self.memory = url, write, tick, memory
        self.speed, self.sleep, self.decide = speed, sleep, decide
        self.seats: dict[str, asyncio.Task[None]] = {}

    async def run(self, commands: AsyncIterator[str]) -> None:
        """Take commands until ``stop`` or the end of ``commands``, then drop every seat."""
        self.write(up_line(os.getpid()))
        loads = asyncio.create_task(self._report_load())
        try:
            async for line in commands:
                if not line.strip():
                    continue
                try:
                    command = parse_command(line)
                except ControlError as error:
                    log.error("refused command %r: %s", line.strip()[:200], error)
                    continue
                if isinstance(command, Stop):
                    break
                if isinstance(command, Drop):
                    await self.drop(command.seat)
                elif isinstance(command, Drive):
                    await self.drive(command)
        finally:
            loads.cancel()
            for seat in list(self.seats):
                await self.drop(seat)

    async def drive(self, command: Drive) -> None:
        await self.drop(command.seat)
        self.seats[command.seat] = asyncio.create_task(self._play(command))

    async def drop(self, seat: str) -> None:
        task = self.seats.pop(seat, None)
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _play(self, command: Drive) -> None:
        seat = HouseSeat(
            self.url,
            command,
            lambda name: self.write(driving_line(name)),
            speed=self.speed,
            sleep=self.sleep,
            decide=self.decide,
        )
        try:
            reason = await seat.run()
        except Exception:
            log.exception("%s: the bot failed", command.seat)
            reason = "failed"
        self.seats.pop(command.seat, None)
        self.write(gone_line(command.seat, reason))

    async def _report_load(self) -> None:
        while True:
            await self.tick()
            self.write(load_line(len(self.seats), self.memory()))
