"""The key line and the move line's examples: each game's own."""

from __future__ import annotations

import contextlib

import pytest

import engine
from client_cli.tui.guide import examples, key_line, placeholder
from engine import VARIANT_KEYS, find_variant


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_every_example_move_is_in_its_games_notation(variant: str) -> None:
    game = engine.replay(variant, b"deal:1", ())
    for text in examples(find_variant(variant)):
        with contextlib.suppress(engine.IllegalMove):  # a move of the game, if not now
            engine.apply(game, engine.Move.parse(text))


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_the_key_line_fits_80_columns(variant: str) -> None:
    for practice in (False, True):
        assert len(key_line(variant, practice)) <= 80
    assert placeholder(variant).startswith(f"a move ({', '.join(examples(find_variant(variant)))})")


def test_the_key_line_names_only_what_the_game_has() -> None:
    assert key_line("little-forty", False).startswith("1-9 0: piles  w  f h: home")
    assert "d: draw" in key_line("little-forty", False)
    milligan = key_line("little-milligan", False)
    assert milligan.startswith("1-8: piles  f h: home") and "d: deal" in milligan
    billie = key_line("little-billie", True)
    assert billie.startswith("1-9 0 b-v: piles  f h: home") and "d: redeal" in billie
    assert billie.endswith("H: hint  ?")
    assert key_line("double-canfield-40", False).startswith("1-6: piles  w r  f h: home")


def test_the_examples_speak_of_what_each_game_has() -> None:
    said = {variant: placeholder(variant) for variant in VARIANT_KEYS}
    assert said["little-forty"].startswith("a move (t3 t7, w f, draw)")
    assert said["little-milligan"].startswith("a move (t3 t7, t3 f, deal)")
    assert said["little-billie"].startswith("a move (t3 f, t3 f5, redeal)")
    assert said["double-canfield-40"].startswith("a move (t3 t6, r f, draw)")
