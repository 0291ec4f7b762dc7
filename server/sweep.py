"""Drops the spectators of server processes that died without a word.

Theory of operation. A process that leaves cleanly takes its spectators out of
each room's count (`server.handlers.disconnected`), or keeps them while it stops
so that they come back elsewhere under the same token. A process killed outright
cannot: its spectators' entries stay in the room (`server.watchers`). What it
loses for certain is its pub/sub subscription to the room's events, which Redis
drops with the connection. So every `period_s` of its clock each process looks at
the rooms it has sockets in (the only rooms whose count anyone here sees) and asks
Redis which other processes holding spectators there still listen to the room.
A process found not listening in two sweeps in a row is taken as gone and its
spectators are dropped: one look alone could catch a live process between
counting a spectator and subscribing, or resubscribing after a Redis restart.
A room nobody here is in is swept by whichever process gets a socket in it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging

from server import room_update, watchers
from server.clock import Clock
from server.hub import Hub
from server.room import RoomError
from server.store import Store, StoreUnavailable

_log = logging.getLogger(__name__)

__all__ = ["SpectatorSweep"]


class SpectatorSweep:
    """Every `period_s` of `clock`, drops the spectators of processes found gone twice."""

    def __init__(self, store: Store, hub: Hub, clock: Clock, period_s: float) -> None:
        self.store, self.hub, self.clock, self.period_s = store, hub, clock, period_s
        self.silent: set[tuple[str, str]] = set()
        """(room code, process) pairs found not listening by the last sweep."""
        self.swept_ms = -1
        """Clock time at which the last finished sweep began."""
        self._swept = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def sweep(self) -> None:
        """Look once; drop the spectators of the processes silent now and last time."""
        began_ms = self.clock.now_ms()
        held = set()
        for code in list(self.hub.members):
            with contextlib.suppress(RoomError):
                room = await self.hub.room(code)
                held |= {
                    (code, w.process) for w in room.watchers if w.process != self.store.process
                }
        silent = held - await self.store.listening(held)
        gone, self.silent = silent & self.silent, silent
        by_room: dict[str, set[str]] = {}
        for code, process in gone:
            by_room.setdefault(code, set()).add(process)
        for code, processes in by_room.items():
            drop = functools.partial(watchers.drop_processes, processes=processes)
            with contextlib.suppress(RoomError):
                await room_update.update(self.store, code, drop)
        self.swept_ms = began_ms
        self._swept.set()

    async def swept_since(self, when_ms: int) -> None:
        """Wait until a sweep that began at `when_ms` or later has finished."""
        while self.swept_ms < when_ms:
            self._swept.clear()
            await self._swept.wait()

    async def _run(self) -> None:
        while True:
            await self.clock.sleep(self.period_s)
            try:
                await self.sweep()
            except StoreUnavailable as error:
                _log.warning("sweeping spectators failed: %s", error)
            except Exception:
                _log.exception("sweeping spectators failed")
