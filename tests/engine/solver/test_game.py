"""Canonical keys and safe moves home."""

from engine import find_variant
from engine.solver._game import Game, home_heights, is_safe_home, state_key
from engine.state import GameState
from tests.engine._positions import (
    FORTY,
    MILLIGAN,
    card,
    double_canfield,
    little_forty,
    little_milligan,
)


def key(state: GameState) -> bytes:
    return state_key(Game.of(find_variant(state.variant)), state)


def test_little_forty_piles_and_foundations_are_interchangeable() -> None:
    one = little_forty(["Kc Qd", "5h", ""], foundations=["2c", "Ad"], stock="3s", passes=1)
    two = little_forty(["", "5h", "Kc Qd"], foundations=["Ad", "", "2c"], stock="3s", passes=1)
    assert key(one) == key(two)
    assert key(one) != key(little_forty(["Kc Qd", "5h"], foundations=["2c", "Ad"], stock="3s"))


def test_little_milligan_piles_the_stock_still_reaches_keep_their_places() -> None:
    stock = "2c 3c 4c 5c 6c 7c 8c 9c"
    assert key(little_milligan(["Kh", "Qs"], stock=stock)) != key(
        little_milligan(["Qs", "Kh"], stock=stock)
    )
    short = "2c 3c"
    assert key(little_milligan(["Kh", "", "Qs"], stock=short)) == key(
        little_milligan(["Kh", "", "", "", "Qs"], stock=short)
    )
    assert key(little_milligan(["Kh", "Qs"], stock=short)) != key(
        little_milligan(["Qs", "Kh"], stock=short)
    )
    assert key(little_milligan(["Kh", "Qs"])) == key(little_milligan(["Qs", "Kh"]))


def test_a_card_is_safe_home_once_every_card_that_could_lie_on_it_is_home() -> None:
    rules = find_variant(MILLIGAN)
    state = little_milligan(["3h"], foundations=["2c", "Ad", "2h", "2s"])
    heights = home_heights(rules, state)
    assert is_safe_home(rules, state, card("3h"), heights)
    unsafe = little_milligan(["3h"], foundations=["2c", "Ad", "2h", "As"])
    assert not is_safe_home(rules, unsafe, card("3h"), home_heights(rules, unsafe))


def test_in_little_forty_every_suit_of_the_rank_below_must_be_home() -> None:
    rules = find_variant(FORTY)
    tops = ["2c", "2c", "2d", "2d", "2h", "2h", "2s", "As"]
    state = little_forty(["3h"], foundations=tops)
    assert not is_safe_home(rules, state, card("3h"), home_heights(rules, state))
    done = little_forty(["3h"], foundations=[*tops[:7], "2s"])
    assert is_safe_home(rules, done, card("3h"), home_heights(rules, done))


def test_with_wrap_a_base_card_is_not_safe_until_the_last_rank_is_home() -> None:
    state = double_canfield(["5h"], foundations=["5c"], base_rank=5)
    rules = find_variant(state.variant)
    assert not is_safe_home(rules, state, card("5h"), home_heights(rules, state))


def test_a_two_is_safe_home_while_aces_are_out_since_they_never_need_it() -> None:
    rules = find_variant(MILLIGAN)
    state = little_milligan(["2h"], foundations=["Ah"])
    assert is_safe_home(rules, state, card("2h"), home_heights(rules, state))
    three = little_milligan(["3h"], foundations=["2h"])
    assert not is_safe_home(rules, three, card("3h"), home_heights(rules, three))
