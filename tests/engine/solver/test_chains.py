"""Little Billie's blocked last deals, against an exhaustive search."""

import dataclasses
import random

from engine import find_variant
from engine.solver._chains import blocked
from tests.engine._positions import BILLIE, little_billie
from tests.engine.solver._tiny import tiny_position, winnable

RULES = find_variant(BILLIE)
DONE = ["Kc", "Kd", "Jh", "Ks", "Ac", "Ad", "2h", "As"]
"""Every suit home but three hearts: the Queen and King up, the Ace down."""


def test_a_king_over_the_queen_it_waits_for_is_blocked() -> None:
    state = little_billie(["Qh Kh", "Ah"], foundations=DONE, passes=2)
    assert blocked(RULES, state)
    assert not winnable(state)


def test_a_king_under_its_queen_is_not_blocked() -> None:
    state = little_billie(["Kh Qh", "Ah"], foundations=DONE, passes=2)
    assert not blocked(RULES, state)
    assert winnable(state)


def test_last_deals_found_blocked_are_never_winnable() -> None:
    rng = random.Random("blocked last deals")
    found = {"blocked": 0, "winnable": 0}
    for index in range(60):
        state = tiny_position(BILLIE, rng, rng.randint(8, 14), crowded=index % 2 == 1)
        state = dataclasses.replace(state, passes=RULES.redeals)
        is_blocked, can_win = blocked(RULES, state), winnable(state)
        assert not (is_blocked and can_win)
        found["blocked"] += is_blocked
        found["winnable"] += can_win
    assert min(found.values()) > 0
