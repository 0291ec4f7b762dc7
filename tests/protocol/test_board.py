"""A board on the wire converts to the engine's view and back without change."""

from __future__ import annotations

import pytest

import engine
from protocol import BoardView


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
def test_to_view_inverts_from_engine(variant: str) -> None:
    state = engine.replay(variant, b"deal:9", [])
    seen = engine.view(state)
    board = BoardView.from_engine(seen)
    assert board.to_view() == seen
    assert BoardView.from_engine(board.to_view()) == board


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
def test_the_board_lists_the_real_games_moves(variant: str) -> None:
    state = engine.new_game(variant, b"deal:9")
    board = BoardView.from_engine(engine.view(state))
    assert engine.legal_moves(engine.game_from_view(board.to_view())) == engine.legal_moves(state)
