"""One background loop on the server clock, shared by the deadline poller and the sweep.

The loop keeps its own schedule: runs are ``period_s`` apart from the start,
and a run that overran is followed at once. A failed run is logged, never
raised: the next one comes on time. Closing cancels the loop and waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from server.clock import Clock
from server.store import StoreUnavailable

__all__ = ["Periodic"]


class Periodic:
    """Runs `work` every `period_s` of `clock` once started; `what` names it in the log."""

    def __init__(
        self,
        clock: Clock,
        period_s: float,
        work: Callable[[], Awaitable[object]],
        what: str,
        log: logging.Logger,
    ) -> None:
        self.clock, self.period_ms, self.work = clock, round(period_s * 1000), work
        self.what, self.log = what, log
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run every `period_s` of the clock from now on."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(self.clock.now_ms()))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self, since_ms: int) -> None:
        next_ms = since_ms
        while True:
            next_ms += self.period_ms
            wait_ms = next_ms - self.clock.now_ms()
            if wait_ms > 0:
                await self.clock.sleep(wait_ms / 1000)
            else:
                next_ms = self.clock.now_ms()
            try:
                await self.work()
            except StoreUnavailable as error:
                self.log.warning("%s failed: %s", self.what, error)
            except Exception:
                self.log.exception("%s failed", self.what)
