"""Legal moves worked out from what a player sees.

The client never knows its face-down cards, but it does not need to: which
moves are legal depends only on face-up cards and on how many cards are face
down, never on which ones. So the board is turned into an engine state with
stand-in cards where the face-down ones lie, and the engine lists the moves.
The stand-ins must never be played forward: the results would be made up.
"""

from __future__ import annotations

from engine import GameState, Move, find_variant, legal_moves
from engine.cards import parse_card
from engine.state import EMPTY
from protocol import BoardView

STAND_IN = 0
"""Any card will do for a face-down one: no legality check reads it."""


def visible_moves(board: BoardView) -> list[Move]:
    """Every move that changes the game, in the engine's order."""
    return legal_moves(visible_state(board))


def visible_state(board: BoardView) -> GameState:
    """An engine state with the board's face-up cards and stand-ins for the rest."""
    rules = find_variant(board.variant)
    reserve = (STAND_IN,) * board.reserve_hidden
    if board.reserve is not None:
        reserve += (parse_card(board.reserve),)
    used = 0
    if rules.passes is not None and board.passes_left is not None:
        used = rules.passes - board.passes_left
    return GameState(
        variant=board.variant,
        tableau=tuple(_cards(pile) for pile in board.tableau),
        foundations=tuple(EMPTY if top is None else parse_card(top) for top in board.foundations),
        stock=(STAND_IN,) * board.stock,
        waste=_cards(board.waste),
        reserve=reserve,
        passes=used,
        base_rank=board.base_rank,
    )


def _cards(texts: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(parse_card(text) for text in texts)
