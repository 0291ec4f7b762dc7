"""A game built from a player's view lists exactly the real game's legal moves."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engine
from engine import PLACEHOLDER, game_from_view


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
@pytest.mark.parametrize("seed", [b"deal:1", b"deal:2", b"\x07" * 32])
def test_moves_from_the_view_match_the_real_game_along_random_play(
    variant: str, seed: bytes
) -> None:
    state = engine.new_game(variant, seed)
    chooser = random.Random(seed)
    for _ in range(150):
        legal = engine.legal_moves(state)
        assert engine.legal_moves(game_from_view(engine.view(state))) == legal
        if not legal:
            break
        state = engine.apply(state, chooser.choice(legal))


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
def test_the_built_game_shows_the_same_view(variant: str) -> None:
    seen = engine.view(engine.new_game(variant, b"deal:5"))
    built = game_from_view(seen)
    assert engine.view(built) == seen
    assert set(built.stock) <= {PLACEHOLDER}
    assert set(built.reserve[:-1]) <= {PLACEHOLDER}


def test_no_recycle_once_the_turn_overs_are_used_up() -> None:
    seen = engine.view(engine.new_game("little-forty", b"deal:1"))
    spent = replace(seen, tableau=((),) * 10, stock=0, waste=("Kc",), passes_left=0)
    moves = [move.format() for move in engine.legal_moves(game_from_view(spent))]
    assert moves == [f"w t{index}" for index in range(1, 11)]


def test_a_bad_card_text_is_an_invalid_move() -> None:
    seen = engine.view(engine.new_game("little-forty", b"deal:1"))
    with pytest.raises(engine.InvalidMove, match="not a card"):
        game_from_view(replace(seen, waste=("Xz",)))
