"""The stock of a draw game as the waste tops reached by drawing alone.

Drawing and turning the waste over never change anything but which card
lies on the waste, so the search never stops on them: it looks at every
position the stock can reach before the passes run out (or in one whole
cycle when they never do) and plays the waste top from there, as one
compound step. Each position is reached the earliest way, so with the most
passes left.

Stock and waste are one row of cards in the order they are drawn (the
waste's first drawn first, then the stock's next card on), cut after the
waste's top: a draw moves the cut on by up to the draw's count, a turn-over
moves it back to the start. So the points are worked out as cuts, and a
state is made only for a waste top that is played.
"""

from __future__ import annotations

from engine.moves import Move
from engine.rules import Rules
from engine.state import GameState

DRAW = Move("draw")
RECYCLE = Move("recycle")
Point = tuple[tuple[Move, ...], int, bool]
"""The moves to a point, how many cards of the row lie on the waste then,
and whether the waste was turned over on the way."""


def stock_points(rules: Rules, state: GameState) -> list[Point]:
    """Every later point of the stock with a waste top, and the moves to it."""
    found: list[Point] = []
    moves: list[Move] = []
    size, cut = len(state.stock) + len(state.waste), len(state.waste)
    turned = False
    while True:
        if cut < size:
            cut = min(size, cut + rules.draw)
            moves.append(DRAW)
        elif not turned and cut and _may_recycle(rules, state):
            cut = 0
            moves.append(RECYCLE)
            turned = True
            continue
        else:
            return found
        found.append((tuple(moves), cut, turned))
        if turned and cut == size:
            return found


def drawn_row(state: GameState) -> tuple[int, ...]:
    """Stock and waste as one row, in the order they are drawn."""
    return state.waste + state.stock[::-1]


def after_taking(
    state: GameState,
    row: tuple[int, ...],
    point: Point,
    *,
    tableau: tuple[tuple[int, ...], ...] | None = None,
    foundations: tuple[int, ...] | None = None,
) -> GameState:
    """The state at ``point`` with its waste top taken off and put where
    ``tableau`` or ``foundations`` (as they are after it) say."""
    _, cut, turned = point
    return state.evolve(
        tableau=tableau,
        foundations=foundations,
        stock=row[cut:][::-1],
        waste=row[: cut - 1],
        passes=state.passes + turned,
    )


def _may_recycle(rules: Rules, state: GameState) -> bool:
    return rules.recycles is None or state.passes < rules.recycles
