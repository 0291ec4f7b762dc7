"""How a game stands: playing, won or stuck, and how far it has come.

A player is stuck when no move that changes the game is left. Drawing and
turning the waste over count only if some card they would bring to the
waste top (before the passes run out, or within one whole cycle when they
never do) could be played somewhere in the current position. The checks run
cheapest first, since the server asks after every move.
"""

from __future__ import annotations

from enum import StrEnum

from engine import _foundation, _stock
from engine._tableau import run_moves, takes
from engine.rules import Rules
from engine.state import GameState
from engine.variants import find_variant


class Outcome(StrEnum):
    PLAYING = "playing"
    WON = "won"
    STUCK = "stuck"


def progress(state: GameState) -> int:
    """Cards on the foundations."""
    return _foundation.progress(find_variant(state.variant), state)


def outcome(state: GameState) -> Outcome:
    """Won, stuck, or still playing; cheap when a move is plainly left."""
    rules = find_variant(state.variant)
    if not (state.stock or state.waste or state.reserve or any(state.tableau)):
        return Outcome.WON
    if rules.stock == "deal" and state.stock:
        return Outcome.PLAYING
    wanted = _foundation.wanted(rules, state)
    if _can_go_home(state, wanted) or _can_build(rules, state):
        return Outcome.PLAYING
    if rules.redeals and _stock.can_redeal(rules, state):
        return Outcome.PLAYING
    if rules.stock == "draw" and _stock_helps(rules, state, wanted):
        return Outcome.PLAYING
    return Outcome.STUCK


def _can_go_home(state: GameState, wanted: set[int]) -> bool:
    if any(pile[-1] in wanted for pile in state.tableau if pile):
        return True
    return any(pile[-1] in wanted for pile in (state.waste, state.reserve) if pile)


def _can_build(rules: Rules, state: GameState) -> bool:
    """Whether some card or run can move onto a tableau pile and change the game."""
    if rules.build is None:
        return False
    if next(run_moves(rules, state.tableau), None) is not None:
        return True
    return any(
        _fits_tableau(rules, state, pile[-1]) for pile in (state.waste, state.reserve) if pile
    )


def _fits_tableau(rules: Rules, state: GameState, card: int) -> bool:
    return any(takes(rules, target, card) for target in state.tableau)


def _stock_helps(rules: Rules, state: GameState, wanted: set[int]) -> bool:
    """Whether drawing and recycling alone would bring up a card that plays now."""
    return any(
        card in wanted or _fits_tableau(rules, state, card)
        for card in _stock.reachable(rules, state)
    )
