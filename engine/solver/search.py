"""Solving a position with every card known: won, unwinnable, or undecided.

The search (see `engine.solver._dfs`) runs with its own lean move
generation, on engine states or (Little Billie) leaner positions; a line
it finds is then replayed through the engine's `apply`, and only a line
the engine accepts and that ends in a won game is ever reported as a win.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Literal

from engine.errors import EngineError
from engine.game import apply
from engine.moves import Move
from engine.solver._best import (
    BALANCED,
    DIGGING,
    HOMEWARD,
    HOMEWARD_BARE,
    UNBURYING,
    BestFirst,
    Weights,
)
from engine.solver._children import building_children
from engine.solver._dfs import Search
from engine.solver._fans import Fans
from engine.solver._game import Game, is_won, piles_stay_runs, state_key
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


FIRST_SLICE = 500
"""Positions a search with a share of 1 expands in its first turn (see
`_searches`); every search's turns double each round."""


def solve(state: GameState, budget: Budget) -> Verdict:
    """Search ``state`` for a winning line within ``budget``.

    In the games that build on the tableau, a quick search that tries only
    moves making progress at once (and in Little Milligan a greedy one
    besides) takes turns with a full search; any may find a win, and only
    the full one, by running out of positions, may prove the game
    unwinnable.
    """
    if is_won(state):
        return _won(state, [], 0)
    if outcome(state) is Outcome.STUCK:  # e.g. a redeal that blocked the game
        return Verdict("unwinnable", (), 0)
    game = Game.of(find_variant(state.variant, state.option))
    if piles_stay_runs(game.rules, state):
        game = replace(game, piles_are_runs=True)
    searches = _searches(state, game, budget.expired)
    full = searches[-1][0]
    turn = FIRST_SLICE
    while True:
        for search, share in [entry for entry in searches if not entry[0].exhausted]:
            spent = sum(entry[0].nodes for entry in searches)
            limit = share * turn
            if budget.nodes is not None:
                limit = min(limit, budget.nodes - spent)
            if limit < 1:
                return Verdict("undecided", (), spent)
            line = search.run(limit)
            nodes = sum(entry[0].nodes for entry in searches)
            if line is not None:
                return _won(state, line, nodes)
            if full.exhausted or search.timed_out:
                return Verdict("unwinnable" if full.exhausted else "undecided", (), nodes)
        turn *= 2


def _searches(
    state: GameState, game: Game, expired: Callable[[], bool] | None
) -> list[tuple[Search[Any] | BestFirst, int]]:
    """The searches that take turns, each with its share of a round's
    positions; the full one last. Best-first searches (`engine.solver._best`)
    find wins the depth-first ones miss: in Double Canfield 40 one of them
    has half the positions; in Little Milligan (the game that deals rows)
    three of them, each ordered by another score and each winning deals the
    others do not, share them with a greedy depth-first search, which finds
    many wins first, the quick search and the full one, which wins only what
    a few thousand positions settle and proves few deals lost."""
    rules = game.rules
    full = _search(state, game, expired)
    if rules.build is None:
        return [(full, 1)]
    quick = replace(game, quick=True)
    if game.stock_cycle:
        return [
            (_best(state, quick, expired, BALANCED), 2),
            (_best(state, quick, expired, DIGGING), 1),
            (_search(state, quick, expired), 1),
            (full, 1),
        ]
    if rules.stock != "deal":
        return [(_search(state, quick, expired), 1), (full, 2)]
    # The greedy search is narrow enough that checking for stuck cards at
    # the last deal costs it more time than the endgames it spares.
    greedy = replace(quick, greedy_home=True, stuck_cards=False)
    return [
        (_best(state, quick, expired, HOMEWARD), 2),
        (_best(state, quick, expired, HOMEWARD_BARE), 1),
        (_best(state, quick, expired, UNBURYING), 2),
        (_search(state, greedy, expired), 2),
        (_search(state, quick, expired), 1),
        (full, 1),
    ]


def _best(
    state: GameState, game: Game, expired: Callable[[], bool] | None, weights: Weights
) -> BestFirst:
    return BestFirst(
        game.rules,
        partial(state_key, game),
        is_won,
        partial(building_children, game),
        state,
        expired=expired,
        weights=weights,
        piles_are_runs=game.piles_are_runs,
    )


def _won(state: GameState, line: list[Move], nodes: int) -> Verdict:
    _check_win(state, line)
    return Verdict("won", tuple(move.format() for move in line), nodes)


def _search(state: GameState, game: Game, expired: Callable[[], bool] | None) -> Search[Any]:
    rules = game.rules
    if rules.build is not None:
        return Search(
            partial(state_key, game), is_won, partial(building_children, game), state, expired
        )
    space = Fans(rules, state)
    return Search(space.key, space.won, space.children, space.start, expired)


def _check_win(state: GameState, line: list[Move]) -> None:
    """Replay ``line`` through the engine; a line that does not win is a solver fault."""
    for move in line:
        state = apply(state, Move.parse(move.format()))
    if outcome(state) != Outcome.WON:
        raise EngineError("the solver's line does not win the game")
