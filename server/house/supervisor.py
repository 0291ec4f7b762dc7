"""The server's house bots: its bot processes and which of them plays each seat.

`House` starts `workers` bot processes (`server.house.worker`), each told to
connect to the server's own loopback listener, and hands each new seat to the
process playing the fewest. It allows `per_worker` seats a process in all
(`has_room`); seats taken over from a process that died (`server.liveness.sweep`)
may go past it, so that no race is left without its bots. A seat its process
gives up on for good (the server unreachable, the bot broken) is passed to
`on_lost`, which lets the room free it; a seat that is gone from its room, or
played elsewhere now, is simply forgotten.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sys
from collections.abc import Awaitable, Callable, Sequence

from protocol import BotLevel
from server.house.worker import BotWorker, Drive

_log = logging.getLogger(__name__)

__all__ = ["House", "bot_command"]

FORGET = frozenset({"seat-freed", "replaced", "auth/bad-token"})
"""`gone` reasons that mean the seat is no longer this house's to play."""

Command = Callable[[int], Sequence[str]]
"""The command line of a bot process, given the port of the server's loopback listener."""


def bot_command(port: int) -> list[str]:
    """``python -m bots.house`` with the server's own Python (docs/bots.md)."""
    return [sys.executable, "-m", "bots.house", "--server", f"ws://127.0.0.1:{port}"]


class House:
    def __init__(
        self,
        workers: int,
        per_worker: int,
        on_lost: Callable[[str, int], Awaitable[None]],
        command: Command = bot_command,
        *,
        first_backoff_s: float = 0.5,
    ) -> None:
        self.workers_wanted, self.per_worker = workers, per_worker
        self.on_lost, self.command, self.first_backoff_s = on_lost, command, first_backoff_s
        self.workers: list[BotWorker] = []
        self.lost: set[asyncio.Future[None]] = set()
        """Seats being freed after their process gave up on them."""

    def start(self, port: int) -> None:
        """Start the bot processes, each connecting to the listener on `port`."""
        for _ in range(self.workers_wanted):
            worker = BotWorker(self.command(port), self._gone, first_backoff_s=self.first_backoff_s)
            worker.start()
            self.workers.append(worker)

    @property
    def available(self) -> bool:
        """Some bot process is up to play a new seat."""
        return any(worker.up for worker in self.workers)

    async def wait_available(self) -> None:
        """Return once some bot process is up."""
        waits = [asyncio.ensure_future(worker.came_up.wait()) for worker in self.workers]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    @property
    def seats(self) -> int:
        return sum(len(worker.seats) for worker in self.workers)

    def has_room(self) -> bool:
        """The processes play fewer seats than they may."""
        return self.seats < self.per_worker * len(self.workers)

    def drive(self, code: str, seat: int, token: str, level: BotLevel) -> None:
        """Have the least busy process play `seat` of room `code` under `token`."""
        name = f"{code}:{seat}"
        for worker in self.workers:
            worker.drop(name)
        ordered = sorted(self.workers, key=lambda worker: (not worker.up, len(worker.seats)))
        ordered[0].drive(Drive(name, token, level, secrets.randbits(32)))

    def drop(self, code: str, seat: int) -> None:
        """Stop playing `seat` of room `code` (its room let it go)."""
        for worker in self.workers:
            worker.drop(f"{code}:{seat}")

    async def close(self, grace_s: float) -> None:
        for worker in self.workers:
            await worker.close(grace_s)

    def _gone(self, name: str, reason: str) -> None:
        if reason in FORGET:
            return
        _log.warning("the bot process gave up on seat %s (%s); freeing it", name, reason)
        code, _, seat = name.partition(":")
        task = asyncio.ensure_future(self.on_lost(code, int(seat)))
        self.lost.add(task)
        task.add_done_callback(self.lost.discard)
