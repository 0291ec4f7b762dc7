"""Which bot sends when, at a fixed total rate: never a bot whose last move is in flight.

The pacer is pure: the caller reads the clock and passes it in. Sends fall due at
`rate` per second from `start`; each goes to the bot idle the longest. A send that
falls due while every bot waits for an acknowledgement is not made and is counted
as missed, so the rate reached is `sent / seconds` and the shortfall is visible.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Generic, TypeVar

T = TypeVar("T")


class Pacer(Generic[T]):
    def __init__(self, bots: Iterable[T], rate: float, start: float) -> None:
        self._idle: deque[T] = deque(bots)
        self._rate, self._start = rate, start
        self.sent = 0
        self.missed = 0

    def due(self, now: float) -> list[T]:
        """The bots to send a move now; each is busy until `done`."""
        owed = int((now - self._start) * self._rate) - self.sent - self.missed
        ready = min(max(owed, 0), len(self._idle))
        self.sent += ready
        self.missed += max(owed, 0) - ready
        return [self._idle.popleft() for _ in range(ready)]

    def done(self, bot: T) -> None:
        """`bot`'s move was acknowledged: it may send again."""
        self._idle.append(bot)
