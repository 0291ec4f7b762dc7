"""Children in Little Billie, where fan tops only go home and fans are redealt.

A fan top is sent home alone, as a forced step, when it is the last copy of
its card out and fits one foundation: that foundation can take nothing else
until this card arrives, and no redeal is allowed while it fits, so any line
plays it before anything that depends on it and playing it now loses nothing.
"""

from __future__ import annotations

from engine._layout import fans
from engine.deal import permutation
from engine.moves import Move
from engine.rules import Rules
from engine.solver._chains import (
    Chain,
    Memo,
    blocked,
    chains,
    copies_home,
    fewest_foundations,
    wanted,
)
from engine.solver._children import Child, Moved
from engine.solver._clear import can_clear
from engine.state import GameState

REDEAL = Move("redeal")
Chains = tuple[list[Chain], dict[int, list[int]], dict[int, int], Memo]


class Redealer:
    """Little Billie's redeals, with each deal's card order drawn once, and
    the foundations as chains by their tops and each redeal's outcome,
    worked out once per search."""

    def __init__(self, rules: Rules, seed: bytes) -> None:
        self.rules = rules
        self.known: dict[tuple[tuple[int, ...], int], Chains] = {}
        self.dealt: dict[tuple[tuple[int, ...], int, tuple[int, ...]], GameState | None] = {}
        self.places: list[list[int]] = []
        for deal in range(1, rules.redeals + 1):
            place = [0] * rules.total
            for position, slot in enumerate(
                permutation(seed, rules.key, f"deal/{deal}", rules.total)
            ):
                place[slot] = position
            self.places.append(place)

    def chains(self, state: GameState) -> Chains:
        """The foundations as chains, the cards they take now, those of
        them that go home alone (the last copy out, fitting one foundation,
        with that foundation), and what `fewest_foundations` remembers for
        them."""
        at = (state.foundations, state.base_rank)
        found = self.known.get(at)
        if found is None:
            lines = chains(self.rules, state)
            waits = wanted(lines)
            last = {
                card: spots[0]
                for card, spots in waits.items()
                if len(spots) == 1 and copies_home(lines, card) == self.rules.decks - 1
            }
            found = self.known[at] = (lines, waits, last, Memo())
        return found

    def next_deal(self, state: GameState) -> GameState | None:
        """The position after the next redeal, or None when that starts the
        last deal and the last deal is lost (see `_lost`). Remembered by the
        foundations, the redeals used and the cards left, which alone decide
        it (the same cards left give the same fans): lines that empty the
        same cards in other orders meet the same redeal."""
        left = tuple(sorted(card for fan in state.tableau for card in fan))
        at = (state.foundations, state.passes, left)
        if at not in self.dealt:
            redealt = self.redealt(state)
            lost = redealt.passes == self.rules.redeals and _lost(self.rules, redealt)
            self.dealt[at] = None if lost else redealt
        return self.dealt[at]

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
    lines, waits, last, memo = redealer.chains(state)
    moves: list[tuple[int, int]] = []
    for index, fan in enumerate(state.tableau):
        if fan and fan[-1] in waits:
            if fan[-1] in last:
                return [_home_child(state, index, last[fan[-1]])]
            moves += [(index, spot) for spot in waits[fan[-1]]]
    if moves:
        chosen = fewest_foundations(lines, waits, state.tableau, moves, memo)
        return [_home_child(state, i, f) for i, f in moves if f in chosen]
    if state.passes < rules.redeals and any(state.tableau):
        redealt = redealer.next_deal(state)
        if redealt is not None:
            return [((REDEAL,), redealt, None)]
    return []


def _lost(rules: Rules, last_deal: GameState) -> bool:
    """Whether the last deal is lost: blocked, or cleared by no choice of
    chains for the copies left (`can_clear`, which may not find out)."""
    return blocked(rules, last_deal) or can_clear(rules, last_deal) is False


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
