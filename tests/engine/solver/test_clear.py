"""Little Billie's last deals cleared by a choice of chains, against an exhaustive search."""

import random

from engine import find_variant
from engine.solver._chains import blocked
from engine.solver._clear import can_clear
from tests.engine._positions import BILLIE, little_billie
from tests.engine.solver._tiny import tiny_position, winnable

RULES = find_variant(BILLIE)
DONE = ["Kc", "Kd", "Jh", "Js", "Ac", "Ad", "Ah", "As"]
"""Every card home but the Queens and Kings of hearts and spades, which go up."""


def test_two_fans_each_covering_the_card_the_other_needs_cannot_be_cleared() -> None:
    """Ks waits for Qs, under Kh; Kh waits for Qh, under Ks. No chain is out
    of reach of a card alone, so the blocked check misses it."""
    state = little_billie(["Qh Ks", "Qs Kh"], foundations=DONE, passes=2)
    assert not blocked(RULES, state)
    assert can_clear(RULES, state) is False
    assert not winnable(state)


def test_two_fans_with_the_queens_free_first_can_be_cleared() -> None:
    state = little_billie(["Qh Ks", "Kh Qs"], foundations=DONE, passes=2)
    assert can_clear(RULES, state) is True
    assert winnable(state)


def test_a_search_out_of_tries_does_not_say() -> None:
    state = little_billie(["Qh Ks", "Qs Kh"], foundations=DONE, passes=2)
    assert can_clear(RULES, state, limit=0) is None


def test_cards_left_that_the_chains_do_not_need_are_not_judged() -> None:
    state = little_billie(["Qh Ks", "Kh"], foundations=DONE, passes=2)
    assert can_clear(RULES, state) is None


def test_last_deals_agree_with_the_exhaustive_search() -> None:
    rng = random.Random("cleared last deals")
    found = {True: 0, False: 0}
    for index in range(120):
        state = tiny_position(BILLIE, rng, rng.randint(8, 18), crowded=index % 2 == 1)
        state = state.evolve(passes=RULES.redeals)
        can_win = winnable(state)
        assert can_clear(RULES, state) is can_win
        found[can_win] += 1
    assert min(found.values()) > 10
