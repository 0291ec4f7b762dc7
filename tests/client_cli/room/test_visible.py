"""Moves listed from a board on the wire equal the engine's moves on the real game."""

from __future__ import annotations

import random

import pytest

import engine
from client_cli.room.visible import visible_moves
from protocol import BoardView


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
def test_visible_moves_match_the_real_game_along_random_play(variant: str) -> None:
    state = engine.new_game(variant, b"deal:3")
    chooser = random.Random(3)
    for _ in range(60):
        legal = engine.legal_moves(state)
        assert visible_moves(BoardView.from_engine(engine.view(state))) == legal
        if not legal:
            break
        state = engine.apply(state, chooser.choice(legal))
