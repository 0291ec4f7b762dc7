"""Foundations, each stored as its top card (`EMPTY` when bare).

A foundation's suit, direction and start rank fix every card beneath its top,
so a top and a height say everything; `cards_on` expands them when needed.
"""

from __future__ import annotations

import functools
from operator import getitem

from engine._table import Remembered
from engine.rules import Rules
from engine.state import EMPTY, GameState
from engine.variants import find_variant

_NEXT_UP = tuple(card - card % 13 + (card % 13 + 1) % 13 for card in range(52))
_NEXT_DOWN = tuple(card - card % 13 + (card % 13 - 1) % 13 for card in range(52))
FULL = 13


def height(rules: Rules, base_rank: int, index: int, top: int) -> int:
    """Cards on foundation ``index`` whose top card is ``top``."""
    if top == EMPTY:
        return 0
    start = rules.start_rank(index, base_rank)
    if rules.foundation_down[index]:
        return (start - top % 13 - 1) % 13 + 1
    return (top % 13 + 1 - start) % 13 + 1


def next_card(rules: Rules, index: int, top: int) -> int:
    """The card that follows a non-empty ``top`` on foundation ``index``."""
    return _NEXT_DOWN[top] if rules.foundation_down[index] else _NEXT_UP[top]


def accepts(rules: Rules, base_rank: int, index: int, top: int, card: int) -> bool:
    """Whether ``card`` may go on foundation ``index`` whose top is ``top``."""
    if top == EMPTY:
        suit = rules.foundation_suits[index]
        if suit is not None and suit != card // 13:
            return False
        return card % 13 + 1 == rules.start_rank(index, base_rank)
    return card == next_card(rules, index, top) and height(rules, base_rank, index, top) < FULL


def first_fit(rules: Rules, state: GameState, card: int) -> int:
    """The lowest foundation index that accepts ``card``, or -1."""
    for index, top in enumerate(state.foundations):
        if accepts(rules, state.base_rank, index, top, card):
            return index
    return -1


def distinct_fits(rules: Rules, state: GameState, card: int) -> list[int]:
    """Foundations accepting ``card``, one per distinct result: foundations
    of the same kind with the same top give the same game."""
    found: list[int] = []
    seen: set[tuple[bool, int, int | None]] = set()
    for index, top in enumerate(state.foundations):
        if not accepts(rules, state.base_rank, index, top, card):
            continue
        kind = (rules.foundation_down[index], top, rules.foundation_suits[index])
        if kind not in seen:
            seen.add(kind)
            found.append(index)
    return found


def wanted(rules: Rules, state: GameState) -> set[int]:
    """Every card some foundation would take now."""
    return set(standing(rules, state)[0])


Takes = dict[int, frozenset[int]]
Heights = dict[int, int]


@functools.cache
def _tables(key: str, base_rank: int) -> tuple[tuple[Takes, ...], tuple[Heights, ...]]:
    """For each foundation of variant ``key`` in a game of base rank ``base_rank``,
    by its top card (or `EMPTY`): the cards it takes, and how many it holds."""
    rules = find_variant(key)
    tops = (EMPTY, *range(52))
    takes = tuple(
        {top: _taken(rules, base_rank, index, top) for top in tops}
        for index in range(rules.foundations)
    )
    heights = tuple(
        {top: height(rules, base_rank, index, top) for top in tops}
        for index in range(rules.foundations)
    )
    return takes, heights


def _taken(rules: Rules, base_rank: int, index: int, top: int) -> frozenset[int]:
    if top == EMPTY:
        return frozenset(card for card in range(52) if accepts(rules, base_rank, index, top, card))
    card = next_card(rules, index, top)
    return frozenset((card,)) if accepts(rules, base_rank, index, top, card) else frozenset()


Standing = tuple[frozenset[int], int]
"""Every card some foundation would take now, and the cards on all foundations."""


def standing(rules: Rules, state: GameState) -> Standing:
    """`wanted` and `progress` of ``state``, which depend on its foundations alone;
    those of recent foundations are remembered."""
    return _STANDINGS[rules.key, state.base_rank, state.foundations]


def _standing_of(key: tuple[str, int, tuple[int, ...]]) -> Standing:
    variant, base_rank, foundations = key
    takes, heights = _tables(variant, base_rank)
    cards = frozenset().union(*map(getitem, takes, foundations))
    return cards, sum(map(getitem, heights, foundations))


_STANDINGS: Remembered[tuple[str, int, tuple[int, ...]], Standing] = Remembered(
    _standing_of, 1 << 13
)


def cards_on(rules: Rules, base_rank: int, index: int, top: int) -> list[int]:
    """The cards on foundation ``index``, bottom to top."""
    step = -1 if rules.foundation_down[index] else 1
    count = height(rules, base_rank, index, top)
    return [top - top % 13 + (top % 13 - step * (count - 1 - i)) % 13 for i in range(count)]
