"""Where dealt cards go: the first deal of each variant, and redealt fans."""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules import Rules
from engine.state import EMPTY, GameState


def deal_out(rules: Rules, cards: Sequence[int], seed: bytes) -> GameState:
    """Lay out ``cards`` (in dealing order, first card first) as a new game.

    In order: one card to foundation 1 where it sets the base rank; then
    each tableau pile in turn gets its cards, bottom first; then the reserve,
    whose last card dealt is its face-up top; the rest form the stock, the
    first of them on top.
    """
    foundations = [EMPTY] * rules.foundations
    base_rank = 1
    at = 0
    if rules.base_from_deal:
        foundations[0] = cards[0]
        base_rank = cards[0] % 13 + 1
        at = 1
    tableau = fans(rules, cards[at:])
    at += rules.piles * rules.dealt_per_pile
    reserve = tuple(cards[at : at + rules.reserve])
    at += rules.reserve
    stock = tuple(reversed(cards[at:]))
    return GameState(
        variant=rules.key,
        tableau=tableau,
        foundations=tuple(foundations),
        stock=stock,
        reserve=reserve,
        base_rank=base_rank,
        seed=seed if rules.has_redeal else b"",
        option=rules.option,
    )


def fans(rules: Rules, cards: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """``cards`` in fans of the deal's size, first fan first, bottom card
    first; the last fan may be short and the fans left over are empty."""
    size = rules.dealt_per_pile
    return tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(rules.piles))
