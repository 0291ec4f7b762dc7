"""Plain statements of how a game stands, to check the engine's fast paths against.

A game is won when every card is home. It goes on while some legal move other
than draw and turn-over is left, or while drawing and turning over alone would
bring to the waste top a card that has a move in the current position (before
the passes run out, or within one whole cycle when they never do). Otherwise
the player is stuck. Progress is the cards home, counted by walking each
foundation from its start rank to its top.
"""

from __future__ import annotations

from dataclasses import replace

from engine import GameState, Move, Outcome, apply, find_variant, legal_moves
from engine.state import EMPTY


def loose_cards(state: GameState) -> int:
    return sum(len(pile) for pile in (*state.tableau, state.stock, state.waste, state.reserve))


def plays(state: GameState, card: int) -> bool:
    """Whether ``card``, alone on the waste, has a legal move in this position."""
    alone = replace(state, stock=(), waste=(card,), reserve=())
    return any(move.src == "w" for move in legal_moves(alone))


def brought_up(state: GameState) -> list[int]:
    """Each card that drawing and turning over alone bring to the waste top."""
    rules = find_variant(state.variant)
    tops: list[int] = []
    if rules.stock != "draw":
        return tops
    turns = 1 if rules.recycles is None else rules.recycles - state.passes
    while True:
        while state.stock:
            state = apply(state, Move("draw"))
            tops.append(state.waste[-1])
        if turns <= 0 or not state.waste:
            return tops
        state = apply(state, Move("recycle"))
        turns -= 1


def plain_outcome(state: GameState) -> Outcome:
    if not loose_cards(state):
        return Outcome.WON
    if any(move.action not in ("draw", "recycle") for move in legal_moves(state)):
        return Outcome.PLAYING
    if any(plays(state, card) for card in brought_up(state)):
        return Outcome.PLAYING
    return Outcome.STUCK


def plain_progress(state: GameState) -> int:
    rules = find_variant(state.variant)
    total = 0
    for index, top in enumerate(state.foundations):
        if top == EMPTY:
            continue
        step = -1 if rules.foundation_down[index] else 1
        rank = rules.start_rank(index, state.base_rank) - 1
        total += 1
        while rank != top % 13:
            rank = (rank + step) % 13
            total += 1
    return total


def plain_wanted(state: GameState) -> set[int]:
    """Every card that, alone on tableau pile 1, could go to a foundation now."""
    found = set()
    for card in range(52):
        alone = replace(state, tableau=((card,), *state.tableau[1:]))
        if any(
            move.src == "t" and move.src_index == 0 and move.dst == "f"
            for move in legal_moves(alone)
        ):
            found.add(card)
    return found
