"""Held connections' waits: on the server's clock, all ended when the server stops."""

from __future__ import annotations

import asyncio

from server.clock import ManualClock
from server.limits.holding import Holding


async def test_a_wait_ends_when_the_clock_has_run_its_time(clock: ManualClock) -> None:
    holding = Holding(clock)
    wait = asyncio.create_task(holding.pause(0.2))
    await clock.scheduled()
    clock.advance(199)
    await asyncio.sleep(0)
    assert not wait.done()
    clock.advance(1)
    assert await wait is True
    assert holding.waiters == set()


async def test_closing_ends_every_wait_and_later_ones_at_once(clock: ManualClock) -> None:
    holding = Holding(clock)
    waits = [asyncio.create_task(holding.pause(5.0)) for _ in range(3)]
    await clock.scheduled(3)
    holding.close()
    assert await asyncio.gather(*waits) == [False, False, False]
    assert await holding.pause(5.0) is False
    assert clock.pending() == 0, "no timer is left behind"
