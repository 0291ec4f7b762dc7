"""The stock of a draw game as positions reached by drawing alone.

Drawing and turning the waste over never change anything but which card
lies on the waste, so the search never stops on them: it looks at every
position the stock can reach before the passes run out (or in one whole
cycle when they never do) and plays the waste top from there, as one
compound step. Each position is reached the earliest way, so with the most
passes left.
"""

from __future__ import annotations

from engine._stock import draw, recycle
from engine.moves import Move
from engine.rules import Rules
from engine.state import GameState

DRAW = Move("draw")
RECYCLE = Move("recycle")


def stock_positions(rules: Rules, state: GameState) -> list[tuple[tuple[Move, ...], GameState]]:
    """Every later position of the stock with a waste top, and the moves to it."""
    found: list[tuple[tuple[Move, ...], GameState]] = []
    moves: list[Move] = []
    turned = False
    while True:
        if state.stock:
            state = draw(rules, state)
            moves.append(DRAW)
        elif not turned and state.waste and _may_recycle(rules, state):
            state = recycle(rules, state)
            moves.append(RECYCLE)
            turned = True
            continue
        else:
            return found
        found.append((tuple(moves), state))
        if turned and not state.stock:
            return found


def _may_recycle(rules: Rules, state: GameState) -> bool:
    return rules.recycles is None or state.passes < rules.recycles
