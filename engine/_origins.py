"""Where each card of a game came from: its place in the deal that laid it out.

An origin is one ``int``, ``deal * total + position``. Deal 0 is the first
deal, positions in its dealing order (see `engine._layout.deal_out`: base
card, tableau, reserve, then stock); deal ``k`` is Little Billie's ``k``-th
redeal, positions in that redeal's order. `Origins` mirror a `GameState`
pile for pile, bottom to top, and each foundation keeps the origins of every
card on it, bottom to top, because a foundation's top implies all beneath it.

The origins follow a game move by move (`follow`): a move only takes cards
off the top of one pile and puts them on another, so the state before and
after the move say how many cards went where.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine._layout import fans
from engine.moves import Move
from engine.rules import Rules
from engine.state import GameState

Piles = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Origins:
    tableau: Piles
    foundations: Piles
    """Every card on each foundation, bottom to top."""
    stock: tuple[int, ...]
    waste: tuple[int, ...]
    reserve: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of the first deal lies in its dealing order."""

    face_up: int
    """Positions below this one were dealt face up (base card and tableau)."""
    reserve_end: int
    """The reserve holds positions ``face_up`` up to this one; the stock the rest."""

    @classmethod
    def of(cls, rules: Rules) -> Layout:
        face_up = int(rules.base_from_deal) + rules.piles * rules.dealt_per_pile
        return cls(min(face_up, rules.total), min(face_up, rules.total) + rules.reserve)


def dealt(rules: Rules) -> Origins:
    """The origins of a new game of ``rules``: every card's dealing position."""
    layout = Layout.of(rules)
    foundations: list[tuple[int, ...]] = [()] * rules.foundations
    if rules.base_from_deal:
        foundations[0] = (0,)
    return Origins(
        tableau=fans(rules, range(int(rules.base_from_deal), layout.face_up)),
        foundations=tuple(foundations),
        stock=tuple(reversed(range(layout.reserve_end, rules.total))),
        waste=(),
        reserve=tuple(range(layout.face_up, layout.reserve_end)),
    )


def follow(rules: Rules, before: GameState, move: Move, after: GameState, at: Origins) -> Origins:
    """The origins after ``move`` took the game from ``before`` to ``after``."""
    if move.action == "draw":
        count = len(before.stock) - len(after.stock)
        cut = len(at.stock) - count
        return replace(at, stock=at.stock[:cut], waste=at.waste + at.stock[cut:][::-1])
    if move.action == "recycle":
        return replace(at, stock=at.waste[::-1], waste=())
    if move.action == "deal":
        return _row_dealt(before, after, at)
    if move.action == "redeal":
        cards = sum(map(len, after.tableau))
        first = after.passes * rules.total
        return replace(at, tableau=fans(rules, range(first, first + cards)))
    return _moved(before, move, after, at)


def _row_dealt(before: GameState, after: GameState, at: Origins) -> Origins:
    count = len(before.stock) - len(after.stock)
    dealt_cards = at.stock[::-1][:count]
    tableau = tuple(
        (*pile, dealt_cards[i]) if i < count else pile for i, pile in enumerate(at.tableau)
    )
    return replace(at, tableau=tableau, stock=at.stock[: len(at.stock) - count])


def _moved(before: GameState, move: Move, after: GameState, at: Origins) -> Origins:
    """A card or run taken off its source's top and put on a pile or a foundation."""
    tableau, waste, reserve = list(at.tableau), at.waste, at.reserve
    if move.src == "t":
        index = move.src_index
        count = len(before.tableau[index]) - len(after.tableau[index])
        if count == 0:
            return at
        taken = tableau[index][-count:]
        tableau[index] = tableau[index][:-count]
    elif move.src == "w":
        taken, waste = waste[-1:], waste[:-1]
    else:
        taken, reserve = reserve[-1:], reserve[:-1]
    foundations = at.foundations
    if move.dst == "t":
        index = move.dst_index or 0
        tableau[index] = tableau[index] + taken
    else:
        index = _changed(before.foundations, after.foundations)
        foundations = (*foundations[:index], foundations[index] + taken, *foundations[index + 1 :])
    return Origins(tuple(tableau), foundations, at.stock, waste, reserve)


def _changed(before: tuple[int, ...], after: tuple[int, ...]) -> int:
    """The one foundation whose top differs."""
    return next(
        index for index, (old, new) in enumerate(zip(before, after, strict=True)) if old != new
    )
