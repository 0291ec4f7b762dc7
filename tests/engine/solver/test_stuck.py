"""Little Milligan endgames with a card that can never leave its place,
against an exhaustive search."""

import random

from engine import GameState, find_variant
from engine.solver._game import home_heights
from engine.solver._stuck import has_stuck_card
from tests.engine._positions import MILLIGAN, little_milligan
from tests.engine.solver._tiny import tiny_position, winnable

RULES = find_variant(MILLIGAN)


def stuck(state: GameState) -> bool:
    return has_stuck_card(RULES, state, home_heights(RULES, state))


def test_queens_over_the_jacks_they_wait_for_with_no_king_free_are_stuck() -> None:
    state = little_milligan(["Jc Qs", "Js Qc", "Kc", "Ks"], foundations=["Tc", "Kd", "Kh", "Ts"])
    assert stuck(state)
    assert not winnable(state)


def test_a_free_red_king_unsticks_them() -> None:
    state = little_milligan(["Jc Qs", "Js Qc", "Kc", "Kh"], foundations=["Tc", "Kd", "Qh", "Ts"])
    assert not stuck(state)
    assert winnable(state)


def test_a_run_may_carry_a_card_off_the_card_before_it() -> None:
    """The Jack of clubs lies on the Ten it waits for, but rides off on the Queen."""
    state = little_milligan(
        ["Kd Tc Qh Jc", "Kc Qc", "Ks", "Kh"], foundations=["9c", "Qd", "Jh", "Qs"]
    )
    assert not stuck(state)
    assert winnable(state)


def test_endgames_found_stuck_are_never_winnable() -> None:
    rng = random.Random("stuck endgames")
    found = {"stuck": 0, "winnable": 0}
    for _ in range(30):
        state = _in_three_piles(rng, tiny_position(MILLIGAN, rng, 7))
        is_stuck, can_win = stuck(state), winnable(state)
        assert not (is_stuck and can_win)
        found["stuck"] += is_stuck
        found["winnable"] += can_win
    assert min(found.values()) > 0


def _in_three_piles(rng: random.Random, state: GameState) -> GameState:
    """The position's cards out of place shuffled into three piles, the stock empty."""
    cards = [card for pile in state.tableau for card in pile] + list(state.stock)
    rng.shuffle(cards)
    piles = [tuple(cards[start::3]) for start in range(3)] + [()] * 5
    return state.evolve(stock=(), tableau=tuple(piles))
