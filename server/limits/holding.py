"""The waits of connections held unanswered over their address's limits
(`RaceServer._admit`), each on the server's clock, all cut short when the
server stops so that a shutdown never waits for them."""

from __future__ import annotations

import asyncio

from server.clock import Clock


class Holding:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.waiters: set[asyncio.Future[None]] = set()
        self.closed = False

    async def pause(self, seconds: float) -> bool:
        """Wait ``seconds``; False when the server is stopping (then at once)."""
        if self.closed:
            return False
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        timer = self.clock.call_later(seconds, lambda: _wake(waiter))
        self.waiters.add(waiter)
        try:
            await waiter
        finally:
            timer.cancel()
            self.waiters.discard(waiter)
        return not self.closed

    def close(self) -> None:
        """End every wait now, and every later one at once."""
        self.closed = True
        for waiter in self.waiters:
            _wake(waiter)


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


__all__ = ["Holding"]
