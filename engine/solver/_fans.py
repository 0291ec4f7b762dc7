"""Children in Little Billie, where fan tops only go home and fans are redealt.

A fan top is sent home alone, as a forced step, when it is the last copy of
its card out and fits one foundation: that foundation can take nothing else
until this card arrives, and no redeal is allowed while it fits, so any line
plays it before anything that depends on it and playing it now loses nothing.
"""

from __future__ import annotations

from engine import _foundation
from engine._layout import fans
from engine.deal import permutation
from engine.moves import Move
from engine.rules import Rules
from engine.solver._children import Child, Moved
from engine.solver._game import home_targets
from engine.state import EMPTY, GameState

REDEAL = Move("redeal")


class Redealer:
    """Little Billie's redeals, with each deal's card order drawn once."""

    def __init__(self, rules: Rules, seed: bytes) -> None:
        self.rules = rules
        self.places: list[list[int]] = []
        for deal in range(1, rules.redeals + 1):
            place = [0] * rules.total
            for position, slot in enumerate(
                permutation(seed, rules.key, f"deal/{deal}", rules.total)
            ):
                place[slot] = position
            self.places.append(place)

    def redealt(self, state: GameState) -> GameState:
        """The fans after the next redeal (see `engine._stock.redeal_order`)."""
        place = self.places[state.passes]
        copies = [0] * 52
        slots: list[int] = []
        for pile in state.tableau:
            for card in pile:
                slots.append(copies[card] * 52 + card)
                copies[card] += 1
        slots.sort(key=place.__getitem__)
        return GameState(
            state.variant,
            fans(self.rules, [slot % 52 for slot in slots]),
            state.foundations,
            state.stock,
            state.waste,
            state.reserve,
            state.passes + 1,
            state.base_rank,
            state.seed,
        )


def fan_children(
    rules: Rules, redealer: Redealer, state: GameState, _moved: Moved = None
) -> list[Child]:
    targets = home_targets(rules, state)
    children: list[Child] = []
    for index, fan in enumerate(state.tableau):
        if not fan:
            continue
        spots = targets.get(fan[-1], ())
        if len(spots) == 1 and _copies_home(rules, state, fan[-1]) == rules.decks - 1:
            return [_home_child(state, index, spots[0])]
        children += [_home_child(state, index, spot) for spot in spots]
    if not children and state.passes < rules.redeals and any(state.tableau):
        children.append(((REDEAL,), redealer.redealt(state), None))
    return children


def _copies_home(rules: Rules, state: GameState, card: int) -> int:
    copies = 0
    for index, top in enumerate(state.foundations):
        if top != EMPTY and top // 13 == card // 13 and _holds(rules, state, index, top, card):
            copies += 1
    return copies


def _holds(rules: Rules, state: GameState, index: int, top: int, card: int) -> bool:
    """Whether foundation ``index`` with ``top`` holds ``card`` (same suit)."""
    start = rules.start_rank(index, state.base_rank)
    rank = card % 13 + 1
    down = rules.foundation_down[index]
    depth = (start - rank if down else rank - start) % 13 + 1
    return depth <= _foundation.height(rules, state.base_rank, index, top)


def _home_child(state: GameState, index: int, foundation: int) -> Child:
    tableau = state.tableau
    card = tableau[index][-1]
    tableau = (*tableau[:index], tableau[index][:-1], *tableau[index + 1 :])
    tops = (*state.foundations[:foundation], card, *state.foundations[foundation + 1 :])
    child = GameState(
        state.variant,
        tableau,
        tops,
        state.stock,
        state.waste,
        state.reserve,
        state.passes,
        state.base_rank,
        state.seed,
    )
    return (Move("move", "t", index, None, "f", foundation),), child, None
