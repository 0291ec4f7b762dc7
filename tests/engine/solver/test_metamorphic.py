"""Metamorphic checks: verdicts of related positions that must agree, whoever
is right about each.

A position is won if one of its children is, and lost only if every child is.
A position with more redeals left is looser: lost there means lost with
fewer, and won with fewer means won there (checked in Little Billie, whose
tiny positions differ by it; Little Forty's are all won either way). Positions are tiny ones near
the end of each game, with a few more cards out than the exhaustive
cross-check can list, so the solver has choices to make.
"""

import random

import pytest

from engine import GameState, apply, find_variant, legal_moves
from engine.solver import Budget, solve
from engine.solver.search import Result
from tests.engine._positions import BILLIE, CANFIELD, FORTY, MILLIGAN
from tests.engine.solver._tiny import tiny_position

BUDGET = Budget(nodes=20_000)
POSITIONS = [(MILLIGAN, 8, 8), (FORTY, 8, 8), (BILLIE, 14, 8), (CANFIELD, 8, 8)]
"""(variant, cards out of place, positions)."""


def verdict(state: GameState) -> Result:
    return solve(state, BUDGET).result


def agree(looser: Result, stricter: Result) -> bool:
    """Whether a looser position's verdict fits a stricter one's: a loss
    there is a loss here, so a win here is never a loss there."""
    return not (looser == "unwinnable" and stricter == "won")


@pytest.mark.parametrize(("variant", "left", "count"), POSITIONS)
def test_a_position_is_won_if_a_child_is_and_lost_only_if_every_child_is(
    variant: str, left: int, count: int
) -> None:
    rng = random.Random(f"metamorphic {variant}")
    found: set[Result] = set()
    for index in range(count):
        state = tiny_position(variant, rng, left, crowded=index % 2 == 1)
        parent = verdict(state)
        children = [verdict(apply(state, move)) for move in legal_moves(state)]
        if "won" in children:
            assert parent == "won"
        if children and all(child == "unwinnable" for child in children):
            assert parent == "unwinnable"
        found.add(parent)
    assert "won" in found


@pytest.mark.parametrize(("variant", "left", "count"), [(BILLIE, 16, 16)])
def test_more_passes_left_never_turn_a_win_into_a_loss(variant: str, left: int, count: int) -> None:
    rules = find_variant(variant)
    assert rules.passes is not None
    rng = random.Random(f"passes {variant}")
    pairs: list[tuple[Result, Result]] = []
    for index in range(count):
        state = tiny_position(variant, rng, left, crowded=index % 2 == 1)
        strict = state.evolve(passes=rules.passes)
        loose = state.evolve(passes=0)
        pairs.append((verdict(loose), verdict(strict)))
    assert all(agree(loose, strict) for loose, strict in pairs)
    assert {"won", "unwinnable"} <= {result for pair in pairs for result in pair}


def test_the_checks_hold_on_a_pair_known_to_differ() -> None:
    assert agree("won", "unwinnable")
    assert not agree("unwinnable", "won")
