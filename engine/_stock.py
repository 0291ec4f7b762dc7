"""Moves that bring new cards into play: draw, recycle, deal and redeal."""

from __future__ import annotations

from collections.abc import Iterator

from engine import _foundation
from engine._layout import fans
from engine.deal import permutation
from engine.errors import IllegalMove
from engine.rules import Rules
from engine.state import GameState


def draw(rules: Rules, state: GameState) -> GameState:
    """Turn up to ``rules.draw`` cards onto the waste one by one."""
    stock = state.stock
    if not stock:
        raise IllegalMove("the stock is empty; recycle the waste instead")
    cut = max(0, len(stock) - rules.draw)
    waste = state.waste + stock[cut:][::-1]
    return state.evolve(stock=stock[:cut], waste=waste)


def recycle(rules: Rules, state: GameState) -> GameState:
    """Turn the waste over as a new stock that deals in the order first drawn."""
    if state.stock:
        raise IllegalMove("the waste is turned over only once the stock is empty")
    if not state.waste:
        raise IllegalMove("the waste is empty; there is nothing to turn over")
    if rules.recycles is not None and state.passes >= rules.recycles:
        raise IllegalMove(f"the waste may be turned over only {rules.recycles} times")
    return state.evolve(stock=state.waste[::-1], waste=(), passes=state.passes + 1)


def deal_row(state: GameState) -> GameState:
    """Deal one stock card onto each pile, the stock's top onto pile 1."""
    stock = state.stock
    if not stock:
        raise IllegalMove("the stock is empty")
    count = min(len(stock), len(state.tableau))
    dealt = stock[::-1][:count]
    tableau = tuple(
        (*pile, dealt[i]) if i < count else pile for i, pile in enumerate(state.tableau)
    )
    return state.evolve(tableau=tableau, stock=stock[: len(stock) - count])


def redeal(rules: Rules, state: GameState) -> GameState:
    """Gather the fans and deal them again in the race's k-th order."""
    if not can_redeal(rules, state):
        raise IllegalMove(_no_redeal(rules, state))
    cards = [card for pile in state.tableau for card in pile]
    order = redeal_order(rules, state.seed, state.passes + 1, cards)
    home = rules.total - len(cards) if rules.redeals is None else 0  # kept only where read
    return state.evolve(tableau=fans(rules, order), passes=state.passes + 1, home_at_redeal=home)


def can_redeal(rules: Rules, state: GameState) -> bool:
    """Redeals are left, cards are left, and no fan top fits a foundation."""
    cards = tops(state)
    if not cards or (rules.redeals is not None and state.passes >= rules.redeals):
        return False
    wanted = _foundation.wanted(rules, state)
    return not any(card in wanted for card in cards) and not is_fresh_redeal(rules, state)


def is_fresh_redeal(rules: Rules, state: GameState) -> bool:
    """Whether, with redeals until blocked, a redeal was made and no card has
    gone home since: then a fan top that fits is the only move, and without one
    the redeal blocked the game. (A variant that redeals keeps every card not
    home in its fans, so the fans tell the cards home.)"""
    if rules.redeals is not None or not state.passes:
        return False
    return rules.total - sum(map(len, state.tableau)) == state.home_at_redeal


def _no_redeal(rules: Rules, state: GameState) -> str:
    if rules.redeals is not None and state.passes >= rules.redeals:
        return f"all {rules.redeals} redeals are used"
    if not tops(state):
        return "no cards are left to redeal"
    if is_fresh_redeal(rules, state) and not any(
        card in _foundation.wanted(rules, state) for card in tops(state)
    ):
        return "the last redeal left no fan's top card fitting a foundation: the game is over"
    return "a fan's top card still fits a foundation; redeal only when none does"


def redeal_order(rules: Rules, seed: bytes, deal: int, cards: list[int]) -> list[int]:
    """``cards`` in the order of deal number ``deal``, whatever order they come in.

    Copy ``j`` of card ``c`` holds slot ``j * 52 + c`` (the copies left of a
    card take the lowest slots); slots are sorted by their place in the
    permutation drawn from label ``"deal/<deal>"``.
    """
    place = [0] * rules.total
    for position, slot in enumerate(permutation(seed, rules.key, f"deal/{deal}", rules.total)):
        place[slot] = position
    copies = [0] * 52
    slots: list[int] = []
    for card in cards:
        slots.append(copies[card] * 52 + card)
        copies[card] += 1
    slots.sort(key=place.__getitem__)
    return [slot % 52 for slot in slots]


def tops(state: GameState) -> list[int]:
    """The top card of every non-empty tableau pile."""
    return [pile[-1] for pile in state.tableau if pile]


def can_bring_up(rules: Rules, state: GameState) -> bool:
    """Whether drawing or recycling could still bring some card to the waste top."""
    return bool(state.stock or (state.waste and _may_recycle(rules, state)))


def waste_tops(rules: Rules, state: GameState) -> Iterator[tuple[int, ...]]:
    """The cards that drawing and recycling alone bring to the waste top: those
    of the pass through the stock, then, where the passes allow another, those
    of one whole cycle (later passes repeat it)."""
    drawn = state.stock[::-1]
    yield _pass_tops(drawn, rules.draw)
    if _may_recycle(rules, state):
        yield _pass_tops(state.waste + drawn, rules.draw)


def _may_recycle(rules: Rules, state: GameState) -> bool:
    return rules.recycles is None or state.passes < rules.recycles


def _pass_tops(cards: tuple[int, ...], step: int) -> tuple[int, ...]:
    """The waste top after each draw of one pass through ``cards``: every
    ``step``-th card, and the last one when a short draw ends the pass."""
    tops = cards[step - 1 :: step]
    return tops + cards[-1:] if len(cards) % step else tops
