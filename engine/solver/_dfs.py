"""Depth-first search over positions, each position expanded at most once.

Theory of operation: the search asks only whether a won position can be
reached, so a position whose key was seen before (on the current line or in
a branch already searched) is never searched again; that keeps the search
complete while the table of seen keys stops cycles and transpositions. The
stack holds an iterator of children per level, so lines of any length fit.
When every reachable position has been searched without a win, the start is
proven unwinnable; when the budget runs out first, it is undecided. A search
runs in slices, so that two searches can take turns.

A position is whatever the game's search keeps (an engine state, or Little
Billie's lean position); the game gives its key, whether it is won, and its
children.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

from engine.moves import Move
from engine.solver._children import Moved

P = TypeVar("P")
CHECK_EVERY = 16
"""Positions expanded between two calls of the deadline check."""


class Search(Generic[P]):
    """One search from ``start``, run in slices of positions by `run`.
    ``expand`` gives a position's children as ``(moves, position, moved)``
    (see `engine.solver._children`)."""

    def __init__(
        self,
        key: Callable[[P], bytes],
        won: Callable[[P], bool],
        expand: Callable[[P, Moved], Iterable[tuple[tuple[Move, ...], P, Moved]]],
        start: P,
        expired: Callable[[], bool] | None,
    ) -> None:
        self.key = key
        self.won = won
        self.expand = expand
        self.expired = expired
        self.nodes = 0
        """Positions expanded so far."""
        self.exhausted = False
        """Every position reachable from the start was searched."""
        self.timed_out = False
        self.seen = {key(start)}
        self.stack: list[Iterator[tuple[tuple[Move, ...], P, Moved]]] = []
        self.line: list[tuple[Move, ...]] = []
        self.pending: tuple[P, Moved] | None = (start, None)

    def run(self, limit: int) -> list[Move] | None:
        """Search on for at most ``limit`` more positions: a winning line, or
        None when the search is over (`exhausted`), the time is up
        (`timed_out`) or the slice is spent."""
        stop = self.nodes + limit
        key, won, seen, stack, line = self.key, self.won, self.seen, self.stack, self.line
        nodes, pending = self.nodes, self.pending
        try:
            while True:
                if pending is not None:
                    if nodes >= stop or self._time_is_up(nodes):
                        return None
                    position, moved = pending
                    pending = None
                    nodes += 1
                    stack.append(iter(self.expand(position, moved)))
                if not stack:
                    self.exhausted = True
                    return None
                for moves, position, moved in stack[-1]:
                    seen_before = len(seen)
                    seen.add(key(position))
                    if len(seen) > seen_before:
                        line.append(moves)
                        if won(position):
                            return [move for moves in line for move in moves]
                        pending = (position, moved)
                        break
                else:
                    stack.pop()
                    if line:
                        line.pop()
        finally:
            self.nodes, self.pending = nodes, pending

    def _time_is_up(self, nodes: int) -> bool:
        if self.expired is not None and nodes % CHECK_EVERY == 0 and self.expired():
            self.timed_out = True
        return self.timed_out
