"""Bot strategies: what they prefer, and that they stop instead of going round in circles."""

from __future__ import annotations

import random

import pytest

import engine
from bots.strategy import STRATEGIES, Strategy, Tried, choose, progress_moves
from protocol import BoardView


def _board(state: engine.GameState) -> BoardView:
    return BoardView.from_engine(engine.view(state))


def _forty(**fields: object) -> BoardView:
    start = _board(engine.new_game("little-forty", b"deal:1"))
    return start.model_copy(update=fields)


KINGS = (("Kc",),) * 8
"""Piles that take nothing and give nothing while the foundations are empty."""


def test_greedy_prefers_home_then_emptying_then_the_stock() -> None:
    home = _forty(tableau=(("Ac",), ("4s",), *KINGS), stock=5, waste=("Kd",))
    assert _chosen(home) == "t1:1 f1"
    emptying = _forty(tableau=(("3h",), ("4s",), *KINGS), stock=5, waste=())
    assert _chosen(emptying) == "t1:1 t2"
    stock = _forty(tableau=(("Kc", "3h"), ("Kc", "4s"), *KINGS), stock=5, waste=())
    assert _chosen(stock) == "draw"


def test_greedy_bots_with_other_seeds_break_ties_their_own_way() -> None:
    two_home = _forty(tableau=(("Ac",), ("Ad",), *KINGS), stock=5, waste=())
    picks = {choose(two_home, set(), "greedy", random.Random(seed)) for seed in range(20)}
    assert {move.format() for move in picks if move is not None} == {"t1:1 f1", "t2:1 f1"}


def test_moves_that_only_shift_cards_are_not_played() -> None:
    shifting = _forty(
        tableau=(("Kc", "3h"), ("Kc", "4s"), *KINGS), stock=0, waste=(), passes_left=0
    )
    assert [move.format() for move in engine.legal_moves(_game(shifting))] == ["t1:1 t2"]
    assert progress_moves(shifting, set()) == []
    assert choose(shifting, set(), "greedy", random.Random(1)) is None


def test_a_move_tried_on_the_same_board_is_not_tried_again() -> None:
    board = _forty(tableau=(("Kc", "3h"), ("Kc", "4s"), *KINGS), stock=5, waste=())
    tried: Tried = {(board, "draw")}
    assert choose(board, tried, "greedy", random.Random(1)) is None


def test_random_play_depends_only_on_the_seed() -> None:
    board = _board(engine.new_game("little-forty", b"deal:4"))
    picks = [choose(board, set(), "random", random.Random(9)) for _ in range(3)]
    assert picks[0] is not None and picks.count(picks[0]) == 3


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
def test_a_bot_game_always_ends(variant: str, strategy: Strategy) -> None:
    """Played through the engine, a bot wins, gets stuck, or resigns within a bound."""
    state = engine.new_game(variant, b"deal:11")
    tried: Tried = set()
    rng = random.Random(11)
    for _ in range(5000):
        board = _board(state)
        move = choose(board, tried, strategy, rng)
        if move is None or board.outcome != "playing":
            break
        tried.add((board, move.format()))
        state = engine.apply(state, move)
    else:
        pytest.fail("the bot was still moving after 5000 moves")
    assert engine.progress(state) >= 0


def _chosen(board: BoardView) -> str:
    move = choose(board, set(), "greedy", random.Random(1))
    assert move is not None
    return move.format()


def _game(board: BoardView) -> engine.GameState:
    return engine.game_from_view(board.to_view())
