"""Fires due room deadlines from the store's shared set, whoever is connected.

Theory of operation. Every save of a room writes the room's next deadline into
one sorted set in the store (`server.store`). Each server process runs one
`DeadlinePoller`: every ``poll_s`` seconds of its clock it claims the entries
due by now (the claim moves each one ``lease_s`` ahead in the same atomic step,
so no other process claims it meanwhile) and runs the deadline handler on each.
The handler settles the entry to the room's next deadline when it is done; a
process that dies between claiming and settling leaves the entry to come due
again when the lease runs out, so no deadline is lost. Processes with sockets in
a room also keep a precise local timer for it (`server.fanout.hub`); the room's version
guard makes every deadline take effect once, whoever acts on it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from server.clock import Clock
from server.liveness.periodic import Periodic
from server.store import Store

_log = logging.getLogger(__name__)

__all__ = ["DeadlinePoller"]

BATCH = 100
"""Most deadlines one poll claims; more wait for the next poll."""


class DeadlinePoller:
    """Claims due deadlines every `poll_s` of `clock` and hands each room code to `handle`."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        handle: Callable[[str], Awaitable[None]],
        *,
        poll_s: float,
        lease_s: float,
    ) -> None:
        self.store, self.clock, self.handle = store, clock, handle
        self.poll_s, self.lease_ms = poll_s, round(lease_s * 1000)
        self.fired = 0
        """Deadlines this process has claimed so far."""
        self.polled_ms = -1
        """Clock time at which the last finished poll began."""
        self._polled = asyncio.Event()
        self._loop = Periodic(clock, poll_s, self.poll, "polling deadlines", _log)

    def start(self) -> None:
        """Poll every `poll_s` of the clock from now on."""
        self._loop.start()

    async def close(self) -> None:
        """Stop polling; a handler cut short keeps its claim until the lease runs out."""
        await self._loop.close()

    async def poll(self) -> list[str]:
        """Claim what is due now and handle it; the codes of the rooms handled."""
        now = self.clock.now_ms()
        codes = await self.store.claim_deadlines(now, now + self.lease_ms, BATCH)
        self.fired += len(codes)
        await asyncio.gather(*(self._fire(code) for code in codes))
        self.polled_ms = now
        self._polled.set()
        return codes

    async def polled_since(self, when_ms: int) -> None:
        """Wait until a poll that began at `when_ms` or later has finished."""
        while self.polled_ms < when_ms:
            self._polled.clear()
            await self._polled.wait()

    async def _fire(self, code: str) -> None:
        try:
            await self.handle(code)
        except Exception:
            _log.exception("the deadline of room %s failed; it comes due again", code)
