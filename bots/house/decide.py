"""Where a house bot's decisions run: off the event loop, in a thread or a process.

A decision (`bots.player.BotPlayer.next_line`) may search for a while (the
strong level: about a quarter of a second of CPU a move). In a worker thread
the event loop keeps every other seat moving meanwhile, but the threads of
one process share one interpreter lock, so together they never get more than
one core. `Decider` with a process pool sends the searching levels' decisions
to worker processes instead (the player goes there with the board and comes
back with its new state), and keeps the other levels, which take a few
milliseconds, in threads: a pool costs a round trip between processes per move.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor

from bots.player import BotPlayer, Sight
from protocol import Hint

SEARCHING = ("strong", "expert")
"""The levels whose decisions may search: the ones a process pool takes."""


def decided(player: BotPlayer, sight: Sight, hint: Hint | None) -> tuple[BotPlayer, str | None]:
    """The player after its decision, and the line it decided on."""
    line = player.next_line(sight, hint)
    return player, line


class Decider:
    """Runs decisions in threads, and the searching levels' in ``pool`` when given."""

    def __init__(self, pool: ProcessPoolExecutor | None = None) -> None:
        self.pool = pool

    async def __call__(
        self, player: BotPlayer, sight: Sight, hint: Hint | None
    ) -> tuple[BotPlayer, str | None]:
        if self.pool is None or player.plan.level not in SEARCHING:
            return await asyncio.to_thread(decided, player, sight, hint)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, decided, player, sight, hint)
