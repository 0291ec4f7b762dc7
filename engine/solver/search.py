"""Solving a position with every card known: won, unwinnable, or undecided.

The search (see `engine.solver._dfs`) runs on engine states with its own
lean move generation; a line it finds is then replayed through the engine's
`apply`, and only a line the engine accepts and that ends in a won game is
ever reported as a win.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Literal

from engine.errors import EngineError
from engine.game import apply
from engine.moves import Move
from engine.solver._children import Child, Moved, building_children
from engine.solver._dfs import Search
from engine.solver._fans import Redealer, fan_children
from engine.solver._game import Game
from engine.state import GameState
from engine.status import Outcome, outcome
from engine.variants import find_variant

Result = Literal["won", "unwinnable", "undecided"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a solve may run: a number of positions expanded, a check
    called now and then that says the time is up, or both."""

    nodes: int | None = None
    expired: Callable[[], bool] | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None and self.nodes < 1:
            raise EngineError("a node budget is at least 1")


@dataclass(frozen=True, slots=True)
class Verdict:
    result: Result
    moves: tuple[str, ...] = ()
    """The winning line in engine notation when ``result`` is ``"won"``."""
    nodes: int = 0
    """Positions expanded."""


QUICK_NODES = 5_000
"""Positions a quick search may expand when the budget sets no node count."""


def solve(state: GameState, budget: Budget) -> Verdict:
    """Search ``state`` for a winning line within ``budget``.

    A quick search that tries only moves making progress at once goes first
    (half the node budget, or `QUICK_NODES`); a full search, the only one
    whose failure proves the game unwinnable, gets what is left.
    """
    rules = find_variant(state.variant)
    spent = 0
    if rules.build is not None:
        quick_nodes = budget.nodes // 2 if budget.nodes is not None else QUICK_NODES
        quick = _search(state, Game.of(rules, quick=True), max(quick_nodes, 1), budget.expired)
        line = quick.run(state)
        if line is not None:
            return _won(state, line, quick.nodes)
        spent = quick.nodes
        if quick.timed_out:
            return Verdict("undecided", (), spent)
    left = None if budget.nodes is None else budget.nodes - spent
    if left is not None and left < 1:
        return Verdict("undecided", (), spent)
    full = _search(state, Game.of(rules), left, budget.expired)
    line = full.run(state)
    if line is not None:
        return _won(state, line, spent + full.nodes)
    return Verdict("unwinnable" if full.exhausted else "undecided", (), spent + full.nodes)


def _won(state: GameState, line: list[Move], nodes: int) -> Verdict:
    _check_win(state, line)
    return Verdict("won", tuple(move.format() for move in line), nodes)


def _search(
    state: GameState, game: Game, max_nodes: int | None, expired: Callable[[], bool] | None
) -> Search:
    rules = game.rules
    expand: Callable[[GameState, Moved], Iterable[Child]]
    if rules.build is not None:
        expand = partial(building_children, game)
    else:
        expand = partial(fan_children, rules, Redealer(rules, state.seed))
    return Search(game, expand, max_nodes, expired)


def _check_win(state: GameState, line: list[Move]) -> None:
    """Replay ``line`` through the engine; a line that does not win is a solver fault."""
    for move in line:
        state = apply(state, Move.parse(move.format()))
    if outcome(state) != Outcome.WON:
        raise EngineError("the solver's line does not win the game")
