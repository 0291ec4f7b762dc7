"""The careful strategy in a fan game (Little Billie): it plans the current
deal's moves by a bounded search of the cards it sees."""

from __future__ import annotations

import random

import pytest

import engine
from bots.fans import Plan
from bots.strategy import Strategy, Tried, choose
from engine.cards import parse_card
from engine.state import EMPTY
from protocol import BoardView

BARE = (EMPTY,) * 8
"""Foundations 1-4 go up in clubs, diamonds, hearts, spades; 5-8 go down."""


def _billie(fans: list[tuple[str, ...]], foundations: tuple[int, ...] = BARE) -> BoardView:
    tableau = tuple(tuple(map(parse_card, fan)) for fan in fans)
    tableau += ((),) * (26 - len(tableau))
    state = engine.GameState("little-billie", tableau, foundations, passes=2)
    return BoardView.from_engine(engine.view(state))


def _picks(board: BoardView, strategy: Strategy, tried: Tried | None = None) -> set[str]:
    """The moves ``strategy`` plays on ``board`` with any of twenty RNG seeds."""
    moves = {choose(board, tried or set(), strategy, random.Random(seed)) for seed in range(20)}
    return {move.format() for move in moves if move is not None}


def test_careful_sends_home_the_copy_that_frees_the_next_card() -> None:
    """Either Ac may go up; only the one on 2c lets a second card follow."""
    board = _billie([("2c", "Ac"), ("Qd", "Ac"), ("5s",)])
    assert _picks(board, "greedy") == {"t1:1 f1", "t2:1 f1"}
    assert _picks(board, "careful") == {"t1:1 f1"}


def test_careful_sends_a_card_up_or_down_by_what_follows() -> None:
    """7h fits hearts up (on 6h) and down (on 8h); only up lets the 8h under it follow."""
    hearts = (EMPTY, EMPTY, parse_card("6h"), EMPTY, EMPTY, EMPTY, parse_card("8h"), EMPTY)
    board = _billie([("8h", "7h"), ("5s",)], hearts)
    assert _picks(board, "greedy") == {"t1:1 f3", "t1:1 f7"}
    assert _picks(board, "careful") == {"t1:1 f3"}


def test_careful_plays_a_worse_move_home_rather_than_repeat_one() -> None:
    board = _billie([("2c", "Ac"), ("Qd", "Ac"), ("5s",)])
    assert _picks(board, "careful", {(board, "t1:1 f1")}) == {"t2:1 f1"}


def test_careful_redeals_when_no_card_fits() -> None:
    state = engine.GameState("little-billie", ((parse_card("5s"),),) + ((),) * 25, BARE)
    board = BoardView.from_engine(engine.view(state))
    assert _picks(board, "careful") == {"redeal"}


def test_the_search_values_at_most_twice_its_share_of_positions() -> None:
    plan = Plan(engine.new_game("little-billie", b"deal:11"))
    plan.limit = 3
    plan.value(plan.heights, plan.chains)
    assert plan.work == 2 * plan.limit


def _home(deal: int, strategy: Strategy) -> int:
    """Cards home at the end of a whole game of ``strategy`` on a public deal."""
    state = engine.new_game("little-billie", b"deal:%d" % deal)
    tried: Tried = set()
    rng = random.Random(deal)
    while engine.outcome(state) == engine.Outcome.PLAYING:
        board = BoardView.from_engine(engine.view(state))
        move = choose(board, tried, strategy, rng)
        if move is None:
            break
        tried.add((board, move.format()))
        state = engine.apply(state, move)
    return engine.progress(state)


@pytest.mark.parametrize(("deal", "greedy", "careful"), [(1, 19, 44), (8, 29, 41), (11, 27, 75)])
def test_careful_gets_more_cards_home_than_greedy_on_pinned_deals(
    deal: int, greedy: int, careful: int
) -> None:
    """Greedy's figure is also what careful got before it planned fan games."""
    assert _home(deal, "greedy") == greedy
    assert _home(deal, "careful") == careful
