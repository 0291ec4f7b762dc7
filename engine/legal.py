"""Every move that changes the game, fully specified, in a fixed order.

Order: moves to the foundations (from tableau piles in order, then the waste,
then the reserve), then moves onto tableau piles (runs by source pile, target
pile and size; then the waste; then the reserve), then draw, recycle, deal and
redeal. A move to the foundations is listed once per distinct result.
"""

from __future__ import annotations

from engine import _foundation, _stock
from engine._tableau import run_moves, takes
from engine.moves import Move, Source
from engine.rules import Rules
from engine.state import GameState
from engine.variants import find_variant


def legal_moves(state: GameState) -> list[Move]:
    """The moves `apply` accepts that change ``state``."""
    rules = find_variant(state.variant, state.option)
    moves = _home_moves(rules, state)
    if rules.build is not None:
        moves += _run_moves(rules, state)
        moves += _card_moves(rules, state)
    moves += _stock_moves(rules, state)
    return moves


def _home_moves(rules: Rules, state: GameState) -> list[Move]:
    moves: list[Move] = []
    for index, pile in enumerate(state.tableau):
        if pile:
            for dst in _foundation.distinct_fits(rules, state, pile[-1]):
                moves.append(Move("move", "t", index, 1, "f", dst))
    for source, pile in _single_sources(state):
        for dst in _foundation.distinct_fits(rules, state, pile[-1]):
            moves.append(Move("move", source, 0, None, "f", dst))
    return moves


def _run_moves(rules: Rules, state: GameState) -> list[Move]:
    return [
        Move("move", "t", src, count, "t", dst)
        for src, count, dst in run_moves(rules, state.tableau)
    ]


def _card_moves(rules: Rules, state: GameState) -> list[Move]:
    moves: list[Move] = []
    for source, pile in _single_sources(state):
        for dst, target in enumerate(state.tableau):
            if takes(rules, target, pile[-1]):
                moves.append(Move("move", source, 0, None, "t", dst))
    return moves


def _single_sources(state: GameState) -> list[tuple[Source, tuple[int, ...]]]:
    """The waste and the reserve, where they hold a card."""
    sources: list[tuple[Source, tuple[int, ...]]] = [("w", state.waste), ("r", state.reserve)]
    return [(source, pile) for source, pile in sources if pile]


def _stock_moves(rules: Rules, state: GameState) -> list[Move]:
    if rules.stock == "draw":
        if state.stock:
            return [Move("draw")]
        if state.waste and (rules.recycles is None or state.passes < rules.recycles):
            return [Move("recycle")]
        return []
    if rules.stock == "deal":
        return [Move("deal")] if state.stock else []
    if rules.has_redeal and _stock.can_redeal(rules, state):
        return [Move("redeal")]
    return []
