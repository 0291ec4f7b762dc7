"""Legal moves worked out from what a player sees (see ``engine.game_from_view``)."""

from __future__ import annotations

from engine import Move, game_from_view, legal_moves
from protocol import BoardView


def visible_moves(board: BoardView) -> list[Move]:
    """Every move that changes the game, in the engine's order."""
    return legal_moves(game_from_view(board.to_view()))
