"""Canonical keys and safe moves home."""

from engine import _stock, find_variant
from engine.rules import Rules
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


def test_double_canfield_stock_splits_a_draw_apart_share_a_key() -> None:
    columns = ["Kc", "5h"]
    order = "2c 3c 4c 5c 6c 7c 8c"  # drawn in this order
    drawn = order.split()

    def at(split: int) -> bytes:
        waste = " ".join(drawn[:split])
        stock = " ".join(reversed(drawn[split:]))
        return key(double_canfield(columns, reserve="9d", stock=stock, waste=waste))

    assert at(0) == at(3) == at(6) == at(7)
    assert len({at(0), at(1), at(2), at(4), at(5)}) == 5
    assert at(1) != at(4)


def test_double_canfield_stock_keys_match_exactly_when_draws_lead_both_ways() -> None:
    rules = find_variant("double-canfield-40")
    game = Game.of(rules)
    for size in range(1, 11):
        order = tuple(range(size))
        states = [
            double_canfield(["Kc"], reserve="9d").evolve(
                stock=tuple(reversed(order[split:])), waste=order[:split]
            )
            for split in range(size + 1)
        ]
        reach = [_by_draws(rules, state) for state in states]
        for one, a in zip(states, reach, strict=True):
            for two, b in zip(states, reach, strict=True):
                both_ways = two.waste in a and one.waste in b
                assert (state_key(game, one) == state_key(game, two)) == both_ways


def _by_draws(rules: Rules, state: GameState) -> set[tuple[int, ...]]:
    """The wastes reached by draws and turn-overs alone."""
    found = {state.waste}
    for _ in range(3 * len(state.stock + state.waste) + 2):
        state = _stock.draw(rules, state) if state.stock else _stock.recycle(rules, state)
        found.add(state.waste)
    return found
