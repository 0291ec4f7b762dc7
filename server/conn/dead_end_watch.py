"""Telling a racer that no card can go home any more (a ``dead_end`` push).

Theory of operation: the process holding a racer's connection watches how
long it has been since the racer's last card went home (the ``progress_at_ms``
of their game record; the race's start before any). Once that is
``dead_end_after_s`` ago, it sends the racer's whole game to a solver worker
(`server.solver.pool`), which searches for any sequence of moves that puts a card
home (`engine.solver.dead_end`). Only a proof that none exists, for a game
still at the version checked, is pushed, and only to that racer's socket: the
answer depends on hidden cards, so it is never a room event. Each position is
checked once; a move re-arms the watch, and a new check waits at least
``dead_end_after_s`` after the last one. A busy analyst or an undecided search
says nothing. Resigning stays the player's choice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Protocol

from pydantic import BaseModel
from websockets.exceptions import ConnectionClosed

from protocol import DeadEnd
from server.clock import Timer
from server.services import Services
from server.solver.jobs import can_reach_home
from server.solver.pool import AnalysisBusy
from server.store import PlayerRecord

_log = logging.getLogger(__name__)


class Racer(Protocol):
    """The session of the connection the racer plays on (`server.conn.session.Session`)."""

    def can_send(self) -> bool: ...

    async def send(self, message: BaseModel) -> None: ...


class Place(Protocol):
    """Where the racer sits (`server.conn.seat.Seat`)."""

    @property
    def code(self) -> str | None: ...

    @property
    def seat(self) -> int | None: ...


class DeadEndWatch:
    def __init__(self, racer: Racer, place: Place, services: Services) -> None:
        self.racer = weakref.ref(racer)
        self.place = weakref.ref(place)
        """Both weak: the session holds its place and the place its watch, and a cycle
        would leave a closed connection's objects to the garbage collector instead of
        freeing them."""
        self.services = services
        self.after_ms = round(services.config.dead_end_after_s * 1000)
        self.progress: int | None = None
        self.progress_at_ms = 0
        """When the racer's last card went home (the race's start before any)."""
        self.checked_at_ms = 0
        self.checked: tuple[str, int] | None = None
        """The room and game version checked last: never checked twice."""
        self.timer: Timer | None = None
        self.task: asyncio.Task[None] | None = None

    def race_started(self, progress: int, start_at_ms: int) -> None:
        """A new race: versions start again from 0, so none of them is checked yet."""
        self.checked, self.checked_at_ms = None, 0
        self.started(progress, start_at_ms)

    def started(self, progress: int, progress_at_ms: int) -> None:
        """The racer is racing: (re)start the watch from their game record."""
        self.progress, self.progress_at_ms = progress, progress_at_ms
        self._arm()

    def moved(self, progress: int, now_ms: int) -> None:
        """A move of the racer was committed. A timer already set stays as it is unless
        a card went home: its due time has not changed (no new timer per move)."""
        if progress != self.progress:
            self.progress, self.progress_at_ms = progress, now_ms
            self._arm()
        elif self.timer is None:
            self._arm()

    def stop(self) -> None:
        """The racer left the room or the connection closed."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.task is not None:
            self.task.cancel()
            self.task = None

    def _arm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        place = self.place()
        if self.services.config.analysis_workers < 1 or place is None or place.seat is None:
            return
        due = max(self.progress_at_ms, self.checked_at_ms) + self.after_ms
        self.timer = self.services.clock.call_at(due, self._fire)

    def _fire(self) -> None:
        self.timer = None
        if self.task is None:
            self.task = asyncio.create_task(self._guarded())

    async def _guarded(self) -> None:
        try:
            await self._check()
        except Exception:
            _log.exception("a dead-end check failed")
        finally:
            if self.task is asyncio.current_task():
                self.task = None

    async def _check(self) -> None:
        """Check the racer's game now, unless it changed or was checked already."""
        found = await self._record()
        now = self.services.clock.now_ms()
        if found is None or found[0] == self.checked:
            return
        position, record = found
        if record.progress_at_ms + self.after_ms > now:
            self.started(record.progress, record.progress_at_ms)
            return
        self.checked, self.checked_at_ms = position, now
        answer = await self._ask(record.state)
        if answer == "cannot":
            await self._tell(record.version)
        self.services.metrics.dead_end_checks.labels(answer).inc()
        if answer == "busy":
            self.checked = None
            self._arm()

    async def _ask(self, state: bytes) -> str:
        budget_s = self.services.config.dead_end_budget_s
        try:
            return await self.services.analyst.run(can_reach_home, state, budget_s)
        except AnalysisBusy:
            return "busy"

    async def _tell(self, version: int) -> None:
        """Push the notice if the racer is still at ``version``, still racing."""
        found = await self._record()
        if found is None or found[0] != self.checked:
            return
        racer = self.racer()
        if racer is None or not racer.can_send():
            return
        at_ms = self.services.clock.now_ms()
        with contextlib.suppress(ConnectionClosed):
            await racer.send(DeadEnd(version=version, at_ms=at_ms))

    async def _record(self) -> tuple[tuple[str, int], PlayerRecord] | None:
        """The racer's game while they are still playing in its room, with the
        position it is at (room, game version)."""
        place = self.place()
        if place is None or place.code is None or place.seat is None:
            return None
        code = place.code
        record = await self.services.store.load_player(code, place.seat)
        if record is None or record.outcome != "playing":
            return None
        return (code, record.version), record
