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
    moves: list[tuple[int, int]] = []
    for index, fan in enumerate(state.tableau):
        if not fan:
            continue
        spots = targets.get(fan[-1], ())
        if len(spots) == 1 and _copies_home(rules, state, fan[-1]) == rules.decks - 1:
            return [_home_child(state, index, spots[0])]
        moves += [(index, spot) for spot in spots]
    if moves:
        suits = _fewest_suits(rules, state, targets, moves)
        return [_home_child(state, i, f) for i, f in moves if state.tableau[i][-1] // 13 in suits]
    if state.passes < rules.redeals and any(state.tableau):
        return [((REDEAL,), redealer.redealt(state), None)]
    return []


def _fewest_suits(
    rules: Rules, state: GameState, targets: dict[int, list[int]], moves: list[tuple[int, int]]
) -> set[int]:
    """The suits whose moves alone need trying: a closed set of suits with the
    fewest moves now (a stubborn set, in partial-order reduction terms).

    Moves of other suits use other cards and other foundations, so they
    commute with these and cannot disable them; and none of them can make a
    move of these suits possible that is not already among them, because a
    set is closed: whenever a foundation of one of its suits waits for a card
    buried in a fan, the suit of the card lying on it is in the set. So every
    position where no move is left (a win, or a redeal point) that the full
    set of moves reaches is still reached.
    """
    waiting: dict[int, list[int]] = {}
    for card, foundations in targets.items():
        for foundation in foundations:
            waiting.setdefault(rules.foundation_suits[foundation] or 0, []).append(card)
    above: dict[int, list[int]] = {}
    for fan in state.tableau:
        for depth in range(len(fan) - 1):
            above.setdefault(fan[depth], []).append(fan[depth + 1] // 13)
    best: set[int] = set(range(4))
    best_count = len(moves)
    for suit in range(4):
        closed = _closed({suit}, waiting, above)
        count = sum(1 for i, _ in moves if state.tableau[i][-1] // 13 in closed)
        if 0 < count < best_count:
            best, best_count = closed, count
    return best


def _closed(
    suits: set[int], waiting: dict[int, list[int]], above: dict[int, list[int]]
) -> set[int]:
    todo = list(suits)
    while todo:
        suit = todo.pop()
        for card in waiting.get(suit, ()):
            for blocker in above.get(card, ()):
                if blocker not in suits:
                    suits.add(blocker)
                    todo.append(blocker)
    return suits


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
