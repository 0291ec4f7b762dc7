"""Opponent progress in a few lines: at most one per player every few seconds.

Every accepted move of every racer is an event; a line for each would bury
everything else. The tracker keeps only each player's latest progress line;
`Digest.due` hands out the ones whose player has not had a line for
``every_s`` seconds, so a player's news is never more than that late and a
burst of moves gives one line. Finishes are not held back (the tracker shows
them at once and drops the progress line they make stale).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable

EVERY_S = 5.0
FLUSH_EVERY_S = 1.0


class Digest:
    def __init__(self, every_s: float = EVERY_S, clock: Callable[[], float] = time.monotonic):
        self.every_s, self.clock = every_s, clock
        self.shown_at: dict[int, float] = {}

    def due(self, pending: dict[int, str]) -> list[str]:
        """Take from ``pending`` (seat → latest line) the lines that may be shown now."""
        now = self.clock()
        lines: list[str] = []
        for seat in sorted(pending):
            if now - self.shown_at.get(seat, -math.inf) >= self.every_s:
                lines.append(pending.pop(seat))
                self.shown_at[seat] = now
        return lines

    async def flush(self, pending: dict[int, str], write: Callable[[str], None]) -> None:
        """Forever: write held-back lines once their time comes (news may stop coming)."""
        while True:
            await asyncio.sleep(FLUSH_EVERY_S)
            for line in self.due(pending):
                write(line)
