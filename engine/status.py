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
from engine._tableau import run_length, takes
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


def wanted_cards(state: GameState) -> set[int]:
    """Every card some foundation would take now (wherever it lies)."""
    return _foundation.wanted(find_variant(state.variant), state)


def outcome(state: GameState) -> Outcome:
    """Won, stuck, or still playing; cheap when a move is plainly left."""
    rules = find_variant(state.variant)
    if not (state.stock or state.waste or state.reserve or any(state.tableau)):
        return Outcome.WON
    if rules.stock == "deal" and state.stock:
        return Outcome.PLAYING
    wanted = _foundation.wanted(rules, state)
    if _can_go_home(state, wanted):
        return Outcome.PLAYING
    if rules.stock == "draw" and _stock_helps(rules, state, wanted):
        return Outcome.PLAYING
    if _can_build(rules, state):
        return Outcome.PLAYING
    if rules.redeals and _stock.can_redeal(rules, state):
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
    if _run_fits(rules, state.tableau):
        return True
    return any(
        _fits_tableau(rules, state, pile[-1]) for pile in (state.waste, state.reserve) if pile
    )


def _run_fits(rules: Rules, tableau: tuple[tuple[int, ...], ...]) -> bool:
    """Whether `run_moves` would yield anything, found by card lookups instead."""
    runs = [run_length(rules, pile) for pile in tableau]
    sources: dict[int, list[int]] = {}
    for src, pile in enumerate(tableau):
        for count in range(1, runs[src] + 1):
            sources.setdefault(pile[-count], []).append(src)
    for dst, target in enumerate(tableau):
        if not target:
            if _fills_empty(rules, tableau, runs):
                return True
            continue
        for card in rules.takers[target[-1]]:
            if any(src != dst for src in sources.get(card, ())):
                return True
    return False


def _fills_empty(rules: Rules, tableau: tuple[tuple[int, ...], ...], runs: list[int]) -> bool:
    """Whether some run, short of a whole pile, may go into an empty pile."""
    for src, pile in enumerate(tableau):
        for count in range(1, min(runs[src], len(pile) - 1) + 1):
            if takes(rules, (), pile[-count]):
                return True
    return False


def _fits_tableau(rules: Rules, state: GameState, card: int) -> bool:
    return any(takes(rules, target, card) for target in state.tableau)


_KINGS = frozenset(suit * 13 + 12 for suit in range(4))


def _stock_helps(rules: Rules, state: GameState, wanted: set[int]) -> bool:
    """Whether drawing and recycling alone would bring up a card that plays now."""
    reachable = _stock.reachable(rules, state)
    if not reachable:
        return False
    useful = set(wanted)
    for target in state.tableau:
        if target:
            useful |= rules.takers[target[-1]]
        elif rules.empty_pile == "any":
            return True
        elif rules.empty_pile == "king":
            useful |= _KINGS
    return not useful.isdisjoint(reachable)
