"""Tiny positions near the end of a game, and an exhaustive search to judge them.

A tiny position has most cards home already and the few others spread at
random (from a pinned generator) over the piles, stock, waste and reserve,
so every reachable position can be listed with the engine's own
`legal_moves` and `apply`, sharing no code with the solver.
"""

from __future__ import annotations

import random
from collections import deque

from engine import GameState, Outcome, apply, find_variant, legal_moves, outcome
from engine.state import EMPTY

MAX_POSITIONS = 400_000


def foundation_top(suit: int, down: bool, base_rank: int, height: int) -> int:
    """The top card of a foundation of ``suit`` holding ``height`` cards."""
    if height == 0:
        return EMPTY
    start = (13 if base_rank == 1 else base_rank - 1) if down else base_rank
    step = -1 if down else 1
    return suit * 13 + (start - 1 + step * (height - 1)) % 13


def cards_left(suit: int, down: bool, base_rank: int, height: int) -> list[int]:
    """The cards still to come onto that foundation."""
    start = (13 if base_rank == 1 else base_rank - 1) if down else base_rank
    step = -1 if down else 1
    return [suit * 13 + (start - 1 + step * h) % 13 for h in range(height, 13)]


def tiny_position(variant: str, rng: random.Random, left: int, crowded: bool = False) -> GameState:
    """About ``left`` cards out of place; the rest home. A crowded position
    has a card on every tableau pile and each pile's lowest cards at the
    bottom, where they are hardest to reach."""
    rules = find_variant(variant)
    base = rng.randint(1, 13) if rules.base_from_deal else 1
    suits = [s if s is not None else i % 4 for i, s in enumerate(rules.foundation_suits)]
    heights = [13] * rules.foundations
    cards: list[int] = []
    while len(cards) < left:
        index = rng.randrange(rules.foundations)
        if heights[index] > 0:
            heights[index] -= 1
            cards = _left_over(rules.foundation_down, suits, base, heights)
    rng.shuffle(cards)
    tops = tuple(
        foundation_top(suits[i], rules.foundation_down[i], base, heights[i])
        for i in range(rules.foundations)
    )
    return _spread(variant, rng, cards, tops, base, crowded=crowded)


def _left_over(
    downs: tuple[bool, ...], suits: list[int], base: int, heights: list[int]
) -> list[int]:
    return [
        card
        for index, height in enumerate(heights)
        for card in cards_left(suits[index], downs[index], base, height)
    ]


def _spread(
    variant: str,
    rng: random.Random,
    cards: list[int],
    tops: tuple[int, ...],
    base: int,
    *,
    crowded: bool,
) -> GameState:
    rules = find_variant(variant)
    stock: list[int] = []
    waste: list[int] = []
    reserve: list[int] = []
    piles: list[list[int]] = [[] for _ in range(rules.piles)]
    if crowded:
        piles = [[card] for card in cards[: rules.piles]]
        cards = cards[rules.piles :]
    for card in cards:
        where = rng.random()
        if rules.stock != "none" and where < 0.3:
            (waste if rules.stock == "draw" and rng.random() < 0.4 else stock).append(card)
        elif rules.reserve and where < 0.5:
            reserve.append(card)
        else:
            pile = rng.randrange(rules.piles if crowded else min(rules.piles, 6))
            if rules.build is None and len(piles[pile]) == rules.dealt_per_pile:
                pile = next(i for i, p in enumerate(piles) if len(p) < rules.dealt_per_pile)
            piles[pile].append(card)
    if crowded:
        piles = [sorted(pile, key=lambda card: (card - base + 1) % 13) for pile in piles]
    passes = rng.randint(0, rules.passes) if rules.passes else 0
    return GameState(
        variant=variant,
        tableau=tuple(tuple(pile) for pile in piles),
        foundations=tops,
        stock=tuple(stock),
        waste=tuple(waste),
        reserve=tuple(reserve),
        passes=passes,
        base_rank=base,
        seed=b"tiny position" if rules.redeals else b"",
    )


def winnable(start: GameState) -> bool:
    """Whether any sequence of legal moves wins, by listing every position."""
    rules = find_variant(start.variant)
    seen = {_plain(start, rules.passes is None)}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if outcome(state) == Outcome.WON:
            return True
        for move in legal_moves(state):
            child = apply(state, move)
            key = _plain(child, rules.passes is None)
            if key not in seen:
                seen.add(key)
                queue.append(child)
        if len(seen) > MAX_POSITIONS:
            raise AssertionError("the position is too large to search exhaustively")
    return False


def _plain(state: GameState, unlimited: bool) -> GameState:
    """The state itself, with the pass count dropped where passes are unlimited."""
    if not unlimited:
        return state
    return state.evolve(passes=0)
