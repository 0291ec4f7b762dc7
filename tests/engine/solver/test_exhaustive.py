"""The solver's verdicts against an exhaustive search that shares no code with it.

Small positions: tiny ones near the end of each game (drawn from pinned
generators), hand-made dead ends, and whole Little Billie deals, which are
small enough to list every position of.
"""

import random

import pytest

from engine import GameState, Move, Outcome, apply, find_variant, new_game, outcome
from engine.solver import Budget, solve
from tests.engine._positions import (
    BILLIE,
    CANFIELD,
    FORTY,
    MILLIGAN,
    double_canfield,
    little_milligan,
)
from tests.engine.solver._tiny import tiny_position, winnable

TINY = [(MILLIGAN, 6, 16), (FORTY, 5, 10), (BILLIE, 10, 20), (CANFIELD, 5, 10)]
"""(variant, cards out of place, positions) for each game's tiny positions."""
BUDGET = Budget(nodes=200_000)


def check_against_exhaustive(state: GameState) -> str:
    """The solver's verdict, after checking it is decided and agrees."""
    verdict = solve(state, BUDGET)
    assert verdict.result != "undecided"
    assert (verdict.result == "won") == winnable(state)
    if verdict.result == "won":
        for text in verdict.moves:
            state = apply(state, Move.parse(text))
        assert outcome(state) == Outcome.WON
    return verdict.result


@pytest.mark.parametrize(("variant", "left", "count"), TINY)
def test_tiny_positions_get_the_exhaustive_verdict(variant: str, left: int, count: int) -> None:
    rng = random.Random(f"tiny {variant}")
    results = {
        check_against_exhaustive(tiny_position(variant, rng, left, crowded=index % 2 == 1))
        for index in range(count)
    }
    assert "won" in results


def test_tiny_billie_positions_include_both_verdicts() -> None:
    rng = random.Random(f"tiny {BILLIE}")
    results = {check_against_exhaustive(tiny_position(BILLIE, rng, 10)) for _ in range(20)}
    assert results == {"won", "unwinnable"}


@pytest.mark.parametrize("deal", [3, 7, 18])
def test_whole_billie_deals_proven_unwinnable_have_no_win(deal: int) -> None:
    assert check_against_exhaustive(new_game(BILLIE, b"deal:%d" % deal)) == "unwinnable"


def test_a_milligan_dead_end_is_unwinnable() -> None:
    """Each Queen covers the Jack the other needs; no red King is left to take one."""
    state = little_milligan(
        ["Jc Qs", "Js Qc", "Kc"], foundations=["Tc", "Kd", "Kh", "Ts"], stock="Ks"
    )
    assert check_against_exhaustive(state) == "unwinnable"


def test_a_canfield_dead_end_is_unwinnable() -> None:
    """Every column's King covers the Queen its foundations need, and the
    reserve's King can go nowhere: no column is free and no Ace is left."""
    state = double_canfield(
        ["Qc Kc", "Qc Kc", "Qs Ks", "Qs Ks", "Qd Kd", "Qh Kh"],
        foundations=["Jc", "Jc", "Jd", "Jd", "Jh", "Jh", "Js", "Js"],
        reserve="Qh Kh Qd Kd",
    )
    assert find_variant(CANFIELD).recycles is None
    assert check_against_exhaustive(state) == "unwinnable"
