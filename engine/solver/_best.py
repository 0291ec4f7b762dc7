"""A best-first search: the most promising position seen so far is expanded next.

Theory of operation: a depth-first search follows its first line to the end
and in the games with an endless stock (Double Canfield 40) wanders there
for hundreds of thousands of positions, shuffling runs deep in a line that
went wrong near its start. This search keeps every position it has seen but
not expanded in a heap ordered by a score of how near a win it looks (cards
home, the reserve played out, few cards buried under others, empty piles),
and always expands the best. It is a streamliner in Solvitaire's sense:
what it finds is a line like any other, replayed through the engine before
it is reported, and running out of positions proves nothing (it may be
given a narrowed move generation), so `solve` never takes its
``exhausted`` for a proof.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine._tableau import run_length
from engine.moves import Move
from engine.rules import Rules
from engine.solver._children import Child, Moved
from engine.state import GameState

CHECK_EVERY = 16
"""Positions expanded between two calls of the deadline check."""


@dataclass(frozen=True, slots=True)
class Weights:
    """What one card home, one reserve card left, one tableau card under a
    card it does not build with, and one empty pile count in a score."""

    home: int
    reserve: int
    buried: int
    empty: int


BALANCED = Weights(home=3, reserve=2, buried=1, empty=1)
HOMEWARD = Weights(home=6, reserve=2, buried=1, empty=1)
"""Cards home above all: in Little Milligan it wins most deals soonest."""
HOMEWARD_BARE = Weights(home=6, reserve=2, buried=1, empty=0)
"""As `HOMEWARD`, with empty piles worth nothing: another order of the same
idea, which wins other deals."""
DIGGING = Weights(home=6, reserve=4, buried=1, empty=0)
"""The reserve played out weighs more: another order for Double Canfield 40."""
UNBURYING = Weights(home=3, reserve=2, buried=2, empty=1)
"""Buried cards weigh more: wins some Little Milligan deals the others miss."""


def score(
    rules: Rules, state: GameState, weights: Weights = BALANCED, piles_are_runs: bool = False
) -> int:
    """Lower is nearer a win: cards home count for, reserve cards left and
    buried tableau cards against, empty piles for (with ``piles_are_runs``,
    see `engine.solver._game.Game`, no card is buried)."""
    out = len(state.stock) + len(state.waste) + len(state.reserve)
    buried = 0
    empty = 0
    for pile in state.tableau:
        if pile:
            out += len(pile)
            if not piles_are_runs:
                buried += len(pile) - run_length(rules, pile)
        else:
            empty += 1
    home = 52 * rules.decks - out
    return (
        weights.reserve * len(state.reserve)
        + weights.buried * buried
        - weights.home * home
        - weights.empty * empty
    )


class BestFirst:
    """A best-first search from ``start``, run in slices by `run` (the same
    interface as `engine.solver._dfs.Search`)."""

    def __init__(
        self,
        rules: Rules,
        key: Callable[[GameState], bytes],
        won: Callable[[GameState], bool],
        expand: Callable[[GameState, Moved], Iterable[Child]],
        start: GameState,
        *,
        expired: Callable[[], bool] | None,
        weights: Weights = BALANCED,
        piles_are_runs: bool = False,
    ) -> None:
        self.rules = rules
        self.weights = weights
        self.piles_are_runs = piles_are_runs
        self.key = key
        self.won = won
        self.expand = expand
        self.expired = expired
        self.nodes = 0
        """Positions expanded so far."""
        self.exhausted = False
        """Every position this search would try was expanded (no proof)."""
        self.timed_out = False
        self.seen = {key(start)}
        self.parents: list[tuple[int, tuple[Move, ...]]] = [(-1, ())]
        """Per position, the one it was reached from and the moves from there."""
        self.heap: list[tuple[int, int, GameState, Moved]] = [
            (score(rules, start, weights, piles_are_runs), 0, start, None)
        ]

    def run(self, limit: int) -> list[Move] | None:
        """Search on for at most ``limit`` more positions: a winning line, or
        None when the search is over, the time is up or the slice is spent."""
        rules, weights, runs, key, won, seen, heap, parents = (
            self.rules,
            self.weights,
            self.piles_are_runs,
            self.key,
            self.won,
            self.seen,
            self.heap,
            self.parents,
        )
        stop = self.nodes + limit
        while heap:
            if self.nodes >= stop or self._time_is_up():
                return None
            _, at, state, moved = heapq.heappop(heap)
            self.nodes += 1
            for moves, child, child_moved in self.expand(state, moved):
                seen_before = len(seen)
                seen.add(key(child))
                if len(seen) == seen_before:
                    continue
                parents.append((at, moves))
                if won(child):
                    return self._line(len(parents) - 1)
                value = score(rules, child, weights, runs)
                entry = (value, len(parents) - 1, child, child_moved)
                heapq.heappush(heap, entry)
        self.exhausted = True
        return None

    def _line(self, at: int) -> list[Move]:
        steps: list[tuple[Move, ...]] = []
        while at > 0:
            at, moves = self.parents[at]
            steps.append(moves)
        return [move for moves in reversed(steps) for move in moves]

    def _time_is_up(self) -> bool:
        if self.expired is not None and self.nodes % CHECK_EVERY == 0 and self.expired():
            self.timed_out = True
        return self.timed_out
