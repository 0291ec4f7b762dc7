"""Whether any card can still go home: the question behind a dead-end notice.

Theory of operation: a player can be out of progress long before the engine
calls them stuck, when every move left only shuffles cards between piles or
turns the stock over. `reach_home` answers whether some sequence of legal
moves from a position (every card known) reaches a position with a legal
move to a foundation. It walks positions with the engine's own `legal_moves`
and `apply`, and stops at the first position with a home move. Moves that
bring cards into play (the stock, the waste, the reserve) are followed before
shuffles between tableau piles, which are many and rarely what frees a card;
the order changes only how soon a way home is found, never what is proven.

Since no card goes home along any line it walks, the foundations never change
during one walk, so they need no place in a position's key. A key keeps every
other part of the position except what provably plays alike: the pass count
when passes are unlimited, and the order of tableau piles that no deal will
ever add a card to (piles of a game that builds on them are otherwise
interchangeable). So "cannot" is said only after every position reachable
without a card going home was expanded; when the budget runs out first, the
answer is "undecided".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from engine.game import apply
from engine.legal import legal_moves
from engine.moves import Move
from engine.rules import Rules
from engine.solver import Budget
from engine.state import GameState
from engine.variants import find_variant

Answer = Literal["can", "cannot", "undecided"]
CHECK_EVERY = 32
"""Positions expanded between two calls of the deadline check."""
_Key = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Reach:
    answer: Answer
    moves: tuple[str, ...] = ()
    """For "can": moves in engine notation, the last of them a card going home."""
    nodes: int = 0
    """Positions expanded."""


def reach_home(state: GameState, budget: Budget) -> Reach:
    """Whether some sequence of legal moves from ``state`` puts another card
    on a foundation, within ``budget``."""
    return _Walk(state, budget).run()


class _Walk:
    """One walk over a double-ended queue: a position reached by a shuffle
    between tableau piles waits at the back, one reached by any other move
    goes to the front (a 0-1 breadth-first order, shuffles costing one)."""

    def __init__(self, start: GameState, budget: Budget) -> None:
        self.rules = find_variant(start.variant, start.option)
        self.limit = budget.nodes
        self.expired: Callable[[], bool] | None = budget.expired
        self.nodes = 0
        key = position_key(self.rules, start)
        self.parents: dict[_Key, tuple[_Key, Move] | None] = {key: None}
        """Every position seen, with the one it was reached from and the move."""
        self.queue = deque([(start, key)])

    def run(self) -> Reach:
        while self.queue:
            if self._out_of_budget():
                return Reach("undecided", (), self.nodes)
            state, key = self.queue.popleft()
            self.nodes += 1
            moves = legal_moves(state)
            home = next((move for move in moves if move.dst == "f"), None)
            if home is not None:
                line = (*self._line_to(key), home)
                return Reach("can", tuple(move.format() for move in line), self.nodes)
            self._enqueue(state, key, moves)
        return Reach("cannot", (), self.nodes)

    def _enqueue(self, state: GameState, key: _Key, moves: list[Move]) -> None:
        for move in moves:
            child = apply(state, move)
            child_key = position_key(self.rules, child)
            if child_key not in self.parents:
                self.parents[child_key] = (key, move)
                if _shuffles(move):
                    self.queue.append((child, child_key))
                else:
                    self.queue.appendleft((child, child_key))

    def _line_to(self, key: _Key) -> list[Move]:
        line: list[Move] = []
        step = self.parents[key]
        while step is not None:
            key, move = step
            line.append(move)
            step = self.parents[key]
        return line[::-1]

    def _out_of_budget(self) -> bool:
        if self.limit is not None and self.nodes >= self.limit:
            return True
        return (
            self.expired is not None
            and self.nodes % CHECK_EVERY == 0
            and self.nodes > 0
            and self.expired()
        )


def _shuffles(move: Move) -> bool:
    """A move between tableau piles: it brings no new card into play."""
    return move.src == "t" and move.dst == "t"


def position_key(rules: Rules, state: GameState) -> _Key:
    """Equal for positions with the same foundations that play alike."""
    piles = list(state.tableau)
    if rules.build is not None and not rules.has_redeal:
        dealt_to = len(state.stock) if rules.stock == "deal" else 0
        piles[dealt_to:] = sorted(piles[dealt_to:])
    passes = state.passes if rules.passes is not None else 0
    return (tuple(piles), state.stock, state.waste, state.reserve, passes)
