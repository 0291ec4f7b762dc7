"""A simple greedy player: a yardstick for win rates and a driver for play-outs.

It prefers, in turn: a move to a foundation; a run move that uncovers a card
or empties a pile onto another; a run move into an empty pile that uncovers
a card; a waste or reserve card onto a pile; then draw, recycle, deal or
redeal. It never returns to a position it has seen, so it always stops.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import (
    GameState,
    Move,
    Outcome,
    apply,
    find_variant,
    legal_moves,
    new_game,
    outcome,
)


@dataclass(frozen=True, slots=True)
class Result:
    state: GameState
    moves: tuple[Move, ...]
    outcome: Outcome


def rank_move(state: GameState, move: Move) -> int:
    """Lower is better."""
    if move.action != "move":
        return 5
    if move.dst == "f":
        return 0
    if move.src != "t":
        return 3 if state.tableau[move.dst_index or 0] else 4
    pile = state.tableau[move.src_index]
    count = move.count or 1
    uncovers = count == len(pile) or not _stacks(state, pile[-count - 1], pile[-count])
    if not uncovers:
        return 6
    if state.tableau[move.dst_index or 0]:
        return 1
    return 2 if count < len(pile) else 6


def _stacks(state: GameState, lower: int, upper: int) -> bool:
    return bool(find_variant(state.variant).stacks[lower * 52 + upper])


def _key(state: GameState) -> GameState:
    """Positions that differ only in the pass count play alike."""
    return state.evolve(passes=0)


def next_move(state: GameState, seen: set[GameState]) -> tuple[Move, GameState] | None:
    """The best-ranked move to a position not seen yet, with that position."""
    ranked = sorted(
        (rank_move(state, move), at, move) for at, move in enumerate(legal_moves(state))
    )
    for _, _, move in ranked:
        after = apply(state, move)
        if _key(after) not in seen:
            return move, after
    return None


def play(variant: str, seed: bytes, limit: int = 3000) -> Result:
    """Play the deal of ``seed`` until won, stuck, out of new positions or
    ``limit`` moves."""
    state = new_game(variant, seed)
    seen = {_key(state)}
    moves: list[Move] = []
    while len(moves) < limit and outcome(state) == Outcome.PLAYING:
        found = next_move(state, seen)
        if found is None:
            break
        move, state = found
        seen.add(_key(state))
        moves.append(move)
    return Result(state, tuple(moves), outcome(state))
