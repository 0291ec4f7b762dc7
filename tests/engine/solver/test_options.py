"""The solver under Little Billie's ``unlimited-redeals`` against the
exhaustive search that shares no code with it (tests/engine/solver/_tiny.py)."""

import random
from dataclasses import replace

import pytest

from engine import new_game
from tests.engine._positions import BILLIE
from tests.engine.solver._tiny import tiny_position
from tests.engine.solver.test_exhaustive import check_against_exhaustive

UNLIMITED = "unlimited-redeals"


def test_tiny_positions_under_the_option_get_the_exhaustive_verdict() -> None:
    rng = random.Random(f"tiny {BILLIE} {UNLIMITED}")
    results = [
        check_against_exhaustive(replace(tiny_position(BILLIE, rng, 10), option=UNLIMITED))
        for _ in range(20)
    ]
    assert set(results) == {"won", "unwinnable"}


@pytest.mark.parametrize("deal", [6, 33, 61, 87])
def test_whole_deals_proven_unwinnable_under_the_option_have_no_win(deal: int) -> None:
    game = new_game(BILLIE, b"deal:%d" % deal, UNLIMITED)
    assert check_against_exhaustive(game) == "unwinnable"
