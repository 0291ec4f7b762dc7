"""The server's clock: wall time, monotonic time, timers and sleeps, in one object.

Every timer, deadline and stamp of the server goes through the `Clock` in its
services. `SystemClock` reads the machine's clocks and schedules on the event
loop. `ManualClock` keeps a time of its own that moves only when its owner
calls `advance`; callbacks and sleepers due by then run in deadline order, so a
test of a ten-second countdown takes no ten seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import math
import time
from collections.abc import AsyncIterator, Callable
from typing import Protocol

__all__ = ["Clock", "ManualClock", "SystemClock", "Timer"]


class Timer(Protocol):
    """A scheduled callback that has not run yet may be cancelled."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    def now_ms(self) -> int:
        """Wall time in integer milliseconds: move stamps, start instants, deadlines."""
        ...

    def monotonic(self) -> float:
        """Seconds that never go back: rate limits and timeouts."""
        ...

    def call_at(self, when_ms: int, callback: Callable[[], None]) -> Timer:
        """Run `callback` once the wall time reaches `when_ms` (soon, if it has)."""
        ...

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        """Run `callback` `delay_s` seconds from now."""
        ...

    async def sleep(self, delay_s: float) -> None: ...

    def timeout(self, delay_s: float) -> contextlib.AbstractAsyncContextManager[object]:
        """Cancel the block after `delay_s` seconds; it then raises `TimeoutError`."""
        ...


class SystemClock:
    """The machine's clocks and the running event loop's timers."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    def monotonic(self) -> float:
        return time.monotonic()

    def call_at(self, when_ms: int, callback: Callable[[], None]) -> Timer:
        return self.call_later(max(0.0, (when_ms - self.now_ms()) / 1000), callback)

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(delay_s, callback)

    async def sleep(self, delay_s: float) -> None:
        await asyncio.sleep(delay_s)

    def timeout(self, delay_s: float) -> contextlib.AbstractAsyncContextManager[object]:
        return asyncio.timeout(delay_s)


class _Entry:
    """A callback of the manual clock, due at a time in ms."""

    __slots__ = ("callback", "cancelled", "when_ms")

    def __init__(self, when_ms: int, callback: Callable[[], None]) -> None:
        self.when_ms, self.callback, self.cancelled = when_ms, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that stands still until `advance` moves it.

    Callbacks already due when scheduled run on the event loop's next turn;
    the others run inside `advance`, in deadline order (ties in the order they
    were scheduled), each with the clock reading its own deadline.
    """

    START_MS = 1_767_225_600_000
    """2026-01-01 00:00 UTC: a fixed, realistic wall time to start from."""

    def __init__(self, start_ms: int = START_MS) -> None:
        self.start_ms = self._now_ms = start_ms
        self._due: list[tuple[int, int, _Entry]] = []
        self._order = itertools.count()
        self._added = asyncio.Event()

    def now_ms(self) -> int:
        return self._now_ms

    def monotonic(self) -> float:
        return (self._now_ms - self.start_ms) / 1000

    def call_at(self, when_ms: int, callback: Callable[[], None]) -> Timer:
        entry = _Entry(when_ms, callback)
        if when_ms <= self._now_ms:
            asyncio.get_running_loop().call_soon(self._run, entry)
        else:
            heapq.heappush(self._due, (when_ms, next(self._order), entry))
            self._added.set()
        return entry

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self._now_ms + math.ceil(delay_s * 1000), callback)

    async def sleep(self, delay_s: float) -> None:
        woken = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        timer = self.call_later(delay_s, wake)
        try:
            await woken
        finally:
            timer.cancel()

    @contextlib.asynccontextmanager
    async def timeout(self, delay_s: float) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(None) as scope:
            timer = self.call_later(delay_s, lambda: scope.reschedule(loop.time()))
            try:
                yield
            finally:
                timer.cancel()

    def pending(self) -> int:
        """How many callbacks wait for the clock to move."""
        return sum(not entry.cancelled for _, _, entry in self._due)

    async def scheduled(self, count: int = 1) -> None:
        """Wait until at least `count` callbacks wait for the clock to move."""
        while self.pending() < count:
            self._added.clear()
            await self._added.wait()

    def advance(self, ms: int) -> None:
        """Move the clock `ms` forward, running every callback due by then."""
        if ms < 0:
            raise ValueError(f"a clock cannot go back ({ms} ms)")
        self.advance_to(self._now_ms + ms)

    def advance_to(self, when_ms: int) -> None:
        """Move the clock to `when_ms` (if it is not there yet), running what is due."""
        while self._due and self._due[0][0] <= when_ms:
            due_ms, _, entry = heapq.heappop(self._due)
            self._now_ms = max(self._now_ms, due_ms)
            self._run(entry)
        self._now_ms = max(self._now_ms, when_ms)

    @staticmethod
    def _run(entry: _Entry) -> None:
        if not entry.cancelled:
            entry.cancelled = True
            entry.callback()
