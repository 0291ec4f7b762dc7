"""The last winning line found for each seat in this process.

A player who follows a hint asks again one move later; the line found the first
time still wins from there, so the next hint is its next move and costs no
search. The lines are few (one per seat) and bounded; an entry for a race over
or a player who left the line is simply not used.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import engine

MAX_LINES = 4096
"""Seats remembered at most; the least recently used one is forgotten first."""


@dataclass(frozen=True, slots=True)
class Line:
    race_no: int
    version: int
    """The player's game version (moves made) where the line starts."""
    moves: tuple[str, ...]
    """The winning line from there, in engine notation."""


class HintLines:
    def __init__(self, size: int = MAX_LINES) -> None:
        self.size = size
        self._lines: OrderedDict[tuple[str, int], Line] = OrderedDict()

    def keep(self, code: str, seat: int, line: Line) -> None:
        self._lines[code, seat] = line
        self._lines.move_to_end((code, seat))
        while len(self._lines) > self.size:
            self._lines.popitem(last=False)

    def next_move(self, code: str, seat: int, race_no: int, played: Sequence[str]) -> str | None:
        """The line's next move if the player's moves so far (``played``, every move
        of the race) followed it from its start to before its end; else ``None``."""
        line = self._lines.get((code, seat))
        if line is None or line.race_no != race_no:
            return None
        done = len(played) - line.version
        if not 0 <= done < len(line.moves):
            return None
        since = [_normal(move) for move in played[line.version :]]
        if since != list(line.moves[:done]):
            return None
        self._lines.move_to_end((code, seat))
        return line.moves[done]


def _normal(text: str) -> str:
    """A move's text as the engine writes it (a client may spell it otherwise)."""
    return engine.Move.parse(text).format()
