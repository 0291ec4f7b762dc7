"""Little Billie's rule option ``unlimited-redeals``: a redeal whenever no fan's
top card fits, as often as that happens, until a redeal leaves none fitting.

Foundations 1-4 are built up from the Ace (clubs, diamonds, hearts, spades),
5-8 down from the King in the same suit order (see tests/engine/_positions.py).
"""

from collections import Counter
from dataclasses import replace
from itertools import pairwise

import pytest

from engine import (
    OPTION_KEYS,
    VARIANT_KEYS,
    VARIANT_OPTIONS,
    Outcome,
    UnknownVariant,
    find_variant,
    legal_moves,
    new_game,
    outcome,
    progress,
    replay,
    view,
)
from engine._layout import fans
from engine._stock import redeal_order
from engine.state import GameState
from tests.engine._positions import BILLIE, BILLIE_SEED, assert_illegal, cards, little_billie, play

UNLIMITED = "unlimited-redeals"
# Every card but 5c-Ac of one copy is home (99 cards): the clubs going down wait for the 5c.
CLUBS_LEFT = ["Kc", "Kd", "Kh", "Ks", "6c", "Ad", "Ah", "As"]
BLOCKED_FANS = ["5c 4c", "3c 2c", "Ac"]
FITTING_FANS = ["4c 3c", "2c Ac", "5c"]
HOME = 99
SEEDS = [b"deal:1", b"deal:6", b"little billie race", bytes(range(64))]


def unlimited(fans: list[str], *, passes: int, home_at_redeal: int = 0) -> GameState:
    state = little_billie(fans, foundations=CLUBS_LEFT, passes=passes)
    return replace(state, option=UNLIMITED, home_at_redeal=home_at_redeal)


def first_line(state: GameState) -> list[GameState]:
    """Every state of the game played by the first legal move each time, to its end."""
    states = [state]
    while outcome(state) is Outcome.PLAYING:
        state = play(state, legal_moves(state)[0].format())
        states.append(state)
    return states


# The option, as data


def test_the_option_is_little_billies_alone_and_lifts_the_redeal_limit() -> None:
    expected = {key: (UNLIMITED,) if key == BILLIE else () for key in VARIANT_KEYS}
    assert expected == VARIANT_OPTIONS
    assert OPTION_KEYS == ("", UNLIMITED)
    rules = find_variant(BILLIE, UNLIMITED)
    assert (rules.key, rules.option, rules.redeals, rules.passes) == (BILLIE, UNLIMITED, None, None)
    assert replace(rules, option="", redeals=2) == find_variant(BILLIE)


@pytest.mark.parametrize(("key", "option"), [(BILLIE, "unlimited"), ("little-forty", UNLIMITED)])
def test_an_option_the_variant_lacks_is_unknown(key: str, option: str) -> None:
    with pytest.raises(UnknownVariant, match="no rule option"):
        find_variant(key, option)
    with pytest.raises(UnknownVariant):
        new_game(key, BILLIE_SEED, option)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_option_deals_the_same_cards_as_the_standard_rules(seed: bytes) -> None:
    standard, option = new_game(BILLIE, seed), new_game(BILLIE, seed, UNLIMITED)
    assert (option.option, standard.option) == (UNLIMITED, "")
    assert replace(option, option="") == standard


# Redeals: legal side


@pytest.mark.parametrize("passes", [2, 3, 17, 104])
def test_redeals_go_on_past_two(passes: int) -> None:
    state = unlimited(BLOCKED_FANS, passes=passes, home_at_redeal=HOME - 1)
    assert outcome(state) is Outcome.PLAYING
    assert [move.format() for move in legal_moves(state)] == ["redeal"]
    after = play(state, "redeal")
    assert (after.passes, after.home_at_redeal) == (passes + 1, HOME)
    assert Counter(c for fan in after.tableau for c in fan) == Counter(cards("5c 4c 3c 2c Ac"))


def test_the_first_deal_blocked_may_be_redealt() -> None:
    state = unlimited(BLOCKED_FANS, passes=0, home_at_redeal=HOME)
    assert outcome(state) is Outcome.PLAYING
    assert play(state, "redeal").passes == 1


def test_a_card_home_after_a_redeal_allows_the_next() -> None:
    redealt = unlimited(FITTING_FANS, passes=5, home_at_redeal=HOME)
    home = play(redealt, "t3 f")  # the 5c; the 4c it wants lies under the 3c
    assert (progress(home), home.home_at_redeal) == (HOME + 1, HOME)
    assert outcome(home) is Outcome.PLAYING
    assert [move.format() for move in legal_moves(home)] == ["redeal"]
    assert play(home, "redeal").home_at_redeal == HOME + 1


# Redeals: illegal side, and the end


def test_a_redeal_that_leaves_no_top_fitting_ends_the_game_as_stuck() -> None:
    state = unlimited(BLOCKED_FANS, passes=3, home_at_redeal=HOME)
    assert outcome(state) is Outcome.STUCK
    assert view(state).outcome == "stuck"
    assert legal_moves(state) == []
    assert "game is over" in assert_illegal(state, "redeal")


def test_right_after_a_redeal_a_fitting_top_is_the_only_move() -> None:
    state = unlimited(FITTING_FANS, passes=3, home_at_redeal=HOME)
    assert outcome(state) is Outcome.PLAYING
    assert [move.format() for move in legal_moves(state)] == ["t3:1 f5"]
    assert "still fits" in assert_illegal(state, "redeal")


@pytest.mark.parametrize("seed", SEEDS)
def test_after_each_redeal_the_game_is_stuck_exactly_when_no_top_fits(seed: bytes) -> None:
    states = first_line(new_game(BILLIE, seed, UNLIMITED))
    redealt = [after for before, after in pairwise(states) if after.passes > before.passes]
    assert len(redealt) == states[-1].passes
    for state in redealt:
        tops_fit = any(move.src == "t" for move in legal_moves(replace(state, passes=0)))
        assert (outcome(state) is Outcome.STUCK) is not tops_fit


def test_the_seeds_reach_both_ends_of_the_rule() -> None:
    """Pinned, so that the test above checks both sides: deal 6's first deal
    and its first redeal are blocked; two seeds are won after 14 redeals."""
    ends = [first_line(new_game(BILLIE, seed, UNLIMITED))[-1] for seed in SEEDS]
    assert [(outcome(end), end.passes, progress(end)) for end in ends] == [
        (Outcome.STUCK, 12, 81),
        (Outcome.STUCK, 1, 2),
        (Outcome.WON, 14, 104),
        (Outcome.WON, 14, 104),
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_every_game_ends_and_never_repeats_a_position(seed: bytes) -> None:
    states = first_line(new_game(BILLIE, seed, UNLIMITED))
    rules = find_variant(BILLIE, UNLIMITED)
    assert len(set(states)) == len(states)
    assert states[-1].passes < rules.deals
    assert len(states) <= rules.total + rules.deals


# The same shuffles for every racer


@pytest.mark.parametrize("seed", SEEDS)
def test_two_games_from_one_seed_stay_identical_through_many_redeals(seed: bytes) -> None:
    one = first_line(new_game(BILLIE, seed, UNLIMITED))
    moves = [legal_moves(state)[0] for state in one[:-1]]
    other = replay(BILLIE, seed, moves, UNLIMITED)
    assert other == one[-1]
    assert other.tableau == one[-1].tableau


@pytest.mark.parametrize("deal", [3, 4, 9, 40])
def test_the_kth_redeal_follows_the_kth_permutation(deal: int) -> None:
    state = unlimited(BLOCKED_FANS, passes=deal - 1, home_at_redeal=HOME - 1)
    order = redeal_order(find_variant(BILLIE), BILLIE_SEED, deal, list(cards("Ac 2c 3c 4c 5c")))
    assert play(state, "redeal").tableau == fans(find_variant(BILLIE), order)


def test_players_with_the_same_cards_left_get_the_same_fans_at_any_redeal() -> None:
    one = unlimited(BLOCKED_FANS, passes=11, home_at_redeal=HOME - 3)
    other = unlimited(["", "Ac 2c", "", "4c 5c 3c"], passes=11, home_at_redeal=HOME - 1)
    assert play(one, "redeal") == play(other, "redeal")
    assert play(one, "redeal") != play(replace(one, passes=12), "redeal")
