"""Depth-first search over positions, each position expanded at most once.

Theory of operation: the search asks only whether a won position can be
reached, so a position whose key was seen before (on the current line or in
a branch already searched) is never searched again; that keeps the search
complete while the table of seen keys stops cycles and transpositions. The
stack holds an iterator of children per level, so lines of any length fit.
When every reachable position has been searched without a win, the start is
proven unwinnable; when the budget runs out first, it is undecided.
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
    def __init__(
        self,
        game: Game,
        expand: Expand,
        max_nodes: int | None,
        expired: Callable[[], bool] | None,
    ) -> None:
        self.game = game
        self.expand = expand
        self.max_nodes = max_nodes
        self.expired = expired
        self.nodes = 0
        self.exhausted = False
        self.timed_out = False

    def run(self, start: GameState) -> list[Move] | None:
        """A winning line, or None (then `exhausted` says whether none exists)."""
        if is_won(start):
            return []
        seen = {state_key(self.game, start)}
        self.nodes = 1
        stack: list[Iterator[Child]] = [iter(self.expand(start, None))]
        line: list[tuple[Move, ...]] = []
        while stack:
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                if line:
                    line.pop()
                continue
            moves, state, moved = step
            key = state_key(self.game, state)
            if key in seen:
                continue
            seen.add(key)
            line.append(moves)
            if is_won(state):
                return [move for moves in line for move in moves]
            if self._out_of_budget():
                return None
            stack.append(iter(self.expand(state, moved)))
        self.exhausted = True
        return None

    def _out_of_budget(self) -> bool:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        self.nodes += 1
        if self.expired is not None and self.nodes % CHECK_EVERY == 0 and self.expired():
            self.timed_out = True
        return self.timed_out
