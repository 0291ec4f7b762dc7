"""The careful strategy: stronger than greedy, yet visible-only, never
repeating, and bounded in the moves it makes between two progress moves."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest

import engine
from bots.careful import SHUFFLE_LIMIT, progress_key
from bots.strategy import Strategy, Tried, choose
from protocol import BoardView


def _board(state: engine.GameState) -> BoardView:
    return BoardView.from_engine(engine.view(state))


def _forty(**fields: object) -> BoardView:
    return _board(engine.new_game("little-forty", b"deal:1")).model_copy(update=fields)


KINGS = (("Kc",),) * 7


@functools.cache
def _play(
    variant: str, deal: int, strategy: Strategy
) -> tuple[engine.GameState, tuple[tuple[BoardView, str], ...]]:
    """A whole game of ``strategy`` on a public deal (played once per test run)."""
    state = engine.new_game(variant, b"deal:%d" % deal)
    tried: Tried = set()
    played: list[tuple[BoardView, str]] = []
    rng = random.Random(deal)
    while engine.outcome(state) == engine.Outcome.PLAYING and len(played) < 5000:
        board = _board(state)
        move = choose(board, tried, strategy, rng)
        if move is None:
            break
        tried.add((board, move.format()))
        played.append((board, move.format()))
        state = engine.apply(state, move)
    return state, tuple(played)


def test_careful_clears_the_way_two_moves_ahead_where_greedy_draws() -> None:
    """Qs onto a King frees 6h; 5s onto 6h then frees Ac for home."""
    board = _forty(tableau=(("Kc", "Ac", "5s"), ("6h", "Qs"), ("Ks",), *KINGS), stock=5, waste=())
    assert choose(board, set(), "greedy", random.Random(1)) == engine.Move.parse("draw")
    move = choose(board, set(), "careful", random.Random(1))
    assert move is not None and (move.src, move.src_index, move.count) == ("t", 1, 1)


def test_careful_builds_from_the_waste_before_drawing() -> None:
    board = _forty(tableau=(("Kc", "9s"), *KINGS, ("Kd",), ("Kh",)), stock=5, waste=("2c", "8h"))
    assert _chosen(board) == "w t1"


def test_careful_does_not_move_a_run_between_equivalent_places() -> None:
    board = _forty(tableau=(("Kc", "6h", "5s"), ("Kd", "6d"), *KINGS, ("Kd",)), stock=5, waste=())
    assert _chosen(board) == "draw"


@pytest.mark.parametrize(
    ("variant", "deal"),
    [
        ("little-forty", 1),
        ("little-forty", 3),
        ("little-milligan", 2),
        ("little-milligan", 3),
        ("double-canfield-40", 1),
    ],
)
def test_careful_gets_further_than_greedy_on_pinned_deals(variant: str, deal: int) -> None:
    greedy, _ = _play(variant, deal, "greedy")
    careful, _ = _play(variant, deal, "careful")
    assert engine.progress(careful) > engine.progress(greedy)


def test_careful_wins_a_pinned_little_forty_deal() -> None:
    state, _ = _play("little-forty", 1, "careful")
    assert engine.outcome(state) == engine.Outcome.WON


BUILDING = [key for key in engine.VARIANT_KEYS if engine.find_variant(key).build is not None]
"""Variants with tableau building, where rearranging moves exist."""


@pytest.mark.parametrize("variant", BUILDING)
def test_careful_never_repeats_and_bounds_its_rearranging(variant: str) -> None:
    _, played = _play(variant, 2, "careful")
    assert len(set(played)) == len(played)
    rearranging = [progress_key(board) for board, text in played if text.split()[-1][0] == "t"]
    assert rearranging, "the pinned game has rearranging moves to check"
    assert max(rearranging.count(key) for key in rearranging) <= SHUFFLE_LIMIT + 1


def test_careful_sees_only_the_visible_board() -> None:
    """Two real games alike to the eye but with other hidden cards get the same move."""
    state = engine.new_game("double-canfield-40", b"deal:5")
    other = replace(
        state, stock=state.stock[::-1], reserve=state.reserve[-2::-1] + state.reserve[-1:]
    )
    assert other != state and _board(other) == _board(state)
    for _ in range(30):
        move = choose(_board(state), set(), "careful", random.Random(3))
        if move is None:
            break
        assert choose(_board(other), set(), "careful", random.Random(3)) == move
        if move.action != "move" or move.src == "r":
            break
        state, other = engine.apply(state, move), engine.apply(other, move)


def _chosen(board: BoardView) -> str:
    move = choose(board, set(), "careful", random.Random(1))
    assert move is not None
    return move.format()
