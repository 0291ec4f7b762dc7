"""Depth-first search over positions, each position expanded at most once.

Theory of operation: the search asks only whether a won position can be
reached, so a position whose key was seen before (on the current line or in
a branch already searched) is never searched again; that keeps the search
complete while the table of seen keys stops cycles and transpositions. The
stack holds an iterator of children per level, so lines of any length fit.
When every reachable position has been searched without a win, the start is
proven unwinnable; when the budget runs out first, it is undecided. A search
runs in slices, so that two searches can take turns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from engine.moves import Move
from engine.solver._children import Child, Moved
from engine.solver._game import Game, is_won, state_key
from engine.state import GameState

Expand = Callable[[GameState, Moved], Iterable[Child]]
CHECK_EVERY = 16
"""Positions expanded between two calls of the deadline check."""


class Search:
    """One search from ``start``, run in slices of positions by `run`."""

    def __init__(
        self, game: Game, expand: Expand, start: GameState, expired: Callable[[], bool] | None
    ) -> None:
        self.game = game
        self.expand = expand
        self.expired = expired
        self.nodes = 0
        """Positions expanded so far."""
        self.exhausted = False
        """Every position reachable from the start was searched."""
        self.timed_out = False
        self.seen = {state_key(game, start)}
        self.stack: list[Iterator[Child]] = []
        self.line: list[tuple[Move, ...]] = []
        self.pending: tuple[GameState, Moved] | None = (start, None)

    def run(self, limit: int) -> list[Move] | None:
        """Search on for at most ``limit`` more positions: a winning line, or
        None when the search is over (`exhausted`), the time is up
        (`timed_out`) or the slice is spent."""
        stop = self.nodes + limit
        game, seen, stack, line = self.game, self.seen, self.stack, self.line
        while True:
            if self.pending is not None:
                if self.nodes >= stop or self._time_is_up():
                    return None
                state, moved = self.pending
                self.pending = None
                self.nodes += 1
                stack.append(iter(self.expand(state, moved)))
            if not stack:
                self.exhausted = True
                return None
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                if line:
                    line.pop()
                continue
            moves, state, moved = step
            key = state_key(game, state)
            if key in seen:
                continue
            seen.add(key)
            line.append(moves)
            if is_won(state):
                return [move for moves in line for move in moves]
            self.pending = (state, moved)

    def _time_is_up(self) -> bool:
        if self.expired is not None and self.nodes % CHECK_EVERY == 0 and self.expired():
            self.timed_out = True
        return self.timed_out
