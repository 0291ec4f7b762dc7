"""Drives a client `Session` as a person at a terminal would: typed lines in, text out."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from client_cli.session.session import Entry, Session
from protocol import JoinRoom
from server.clock import ManualClock
from tests.server._client import Client, count_down

TIMEOUT_S = 10.0


class Terminal:
    """One client session fed from a queue of lines, its output kept for checking."""

    def __init__(self, server: str, state_file: Path | None = None) -> None:
        self.output: list[str] = []
        self.session = Session(server, self.output.append, state_file)
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self.task: asyncio.Task[int] | None = None

    def start(self, entry: Entry) -> None:
        self.task = asyncio.create_task(self.session.run(entry, self._typed()))

    @property
    def text(self) -> str:
        return "\n".join(self.output)

    async def type(self, line: str, expect: str | None = None) -> str:
        """Type a line; with ``expect``, wait for new output holding it and return that."""
        mark = len(self.output)
        await self.lines.put(line)
        if expect is None:
            return ""
        return await self.wait_for(expect, mark)

    async def wait_for(self, expect: str, mark: int = 0) -> str:
        """The output from line ``mark`` on, once it contains ``expect``."""
        async with asyncio.timeout(TIMEOUT_S):
            while expect not in (new := "\n".join(self.output[mark:])):
                await asyncio.sleep(0.01)
        return new

    async def quit(self) -> int:
        """Type quit and wait for the session to end; its exit status."""
        assert self.task is not None
        await self.lines.put("quit")
        async with asyncio.timeout(TIMEOUT_S):
            return await self.task

    async def close(self) -> None:
        """End the session whatever state it is in (test cleanup)."""
        await self.lines.put(None)
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _typed(self) -> AsyncIterator[str]:
        while (line := await self.lines.get()) is not None:
            yield line


async def ready_and_go(
    clock: ManualClock, last: Terminal, *others: Terminal, countdown_s: int = 1
) -> None:
    """The `last` player says ready; the server's clock runs the countdown out; all see GO."""
    await last.type("ready", expect="race 1 starts in")
    clock.advance(countdown_s * 1000)
    for terminal in (last, *others):
        await terminal.wait_for("Race 1: GO!")


async def start_when_counting_down(url: str, code: str, clock: ManualClock) -> None:
    """Watch room `code` until its countdown begins, then move the server's clock to the start
    (for races whose players are all bots, which say ready by themselves)."""
    watcher = await Client.open(url, clock)
    try:
        joined = await watcher.call(JoinRoom, code=code, name="clock", role="spectator")
        assert joined.type == "joined", joined
        await count_down(watcher)
    finally:
        await watcher.close()
