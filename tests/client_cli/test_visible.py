"""Moves listed from what a player sees equal the engine's moves on the real game."""

from __future__ import annotations

import random

import pytest

import engine
from client_cli.visible import visible_moves, visible_state
from protocol import BoardView


def _seen(state: engine.GameState) -> BoardView:
    return BoardView.from_engine(engine.view(state))


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
@pytest.mark.parametrize("seed", [b"deal:1", b"deal:2", b"\x07" * 32])
def test_visible_moves_match_the_real_game_along_random_play(variant: str, seed: bytes) -> None:
    state = engine.new_game(variant, seed)
    chooser = random.Random(seed)
    for _ in range(150):
        legal = engine.legal_moves(state)
        assert visible_moves(_seen(state)) == legal
        if not legal:
            break
        state = engine.apply(state, chooser.choice(legal))


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
def test_the_stand_in_state_shows_the_same_board(variant: str) -> None:
    state = engine.replay(variant, b"deal:5", [])
    board = _seen(state)
    again = _seen(visible_state(board))
    fields = ("tableau", "foundations", "stock", "waste", "reserve", "reserve_hidden")
    for field in (*fields, "passes_left", "base_rank", "progress", "total"):
        assert getattr(again, field) == getattr(board, field), field


def test_no_recycle_once_the_turn_overs_are_used_up() -> None:
    board = _seen(engine.new_game("little-forty", b"deal:1")).model_copy(
        update={"tableau": ((),) * 10, "stock": 0, "waste": ("Kc",), "passes_left": 0}
    )
    assert [move.format() for move in visible_moves(board)] == [
        f"w t{index}" for index in range(1, 11)
    ]
