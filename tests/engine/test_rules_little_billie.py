"""Little Billie: each rule of the seed text and of RULES.md, legal and illegal side.

Foundations 1-4 are built up from the Ace (clubs, diamonds, hearts, spades),
5-8 down from the King in the same suit order.
"""

from collections import Counter
from dataclasses import replace

import pytest

from engine import Outcome, legal_moves, new_game, outcome, progress, view
from engine.cards import format_card
from engine.state import EMPTY, GameState
from tests.engine._positions import (
    BILLIE,
    BILLIE_SEED,
    assert_illegal,
    assert_invalid,
    assert_refused,
    cards,
    little_billie,
    play,
)

# Every card but 5c-Ac of one copy is home: the clubs going down wait for the 5c.
CLUBS_LEFT = ["Kc", "Kd", "Kh", "Ks", "6c", "Ad", "Ah", "As"]
BLOCKED_FANS = ["5c 4c", "3c 2c", "Ac"]
# Both copies of every heart are left, and neither hearts foundation is started.
HEARTS_LEFT = ["Kc", "Kd", "", "Ks", "Ac", "Ad", "", "As"]
HEARTS_FANS = [
    "2h 3h 4h 5h",
    "Ah 6h 7h 8h",
    "Kh 9h Th",
    "Jh Qh",
    "Kh Ah 2h 3h",
    "4h 5h 6h 7h",
    "8h 9h Th Jh Qh",
]
HEARTS_FANS_TOO = [
    "8h 9h Th Jh Qh",
    "Kh Ah 2h",
    "3h 4h 5h 6h 7h 8h 9h",
    "Kh Ah 2h 3h Th Jh",
    "4h 5h 6h 7h Qh",
]
COMPLETE = ["Kc", "Kd", "Kh", "Ks", "Ac", "Ad", "Ah", "As"]
SEEDS = [b"b", b"little billie race", bytes(range(64))]


def fan_cards(state: GameState) -> Counter[int]:
    return Counter(c for fan in state.tableau for c in fan)


def assert_dealt_in_fans_of_four(state: GameState, count: int) -> None:
    """The first fans hold four cards each, the last one may be short, the rest are empty."""
    sizes = [len(fan) for fan in state.tableau]
    full, short = divmod(count, 4)
    used = full + (short > 0)
    assert sizes[:full] == [4] * full
    assert sizes[full:used] == ([short] if short else [])
    assert not any(sizes[used:])


# Foundations


def test_ace_starts_the_up_foundation_of_its_suit() -> None:
    state = little_billie(["5d Ac"])
    expected = little_billie(["5d"], foundations=["Ac"])
    assert play(state, "t1 f1") == expected
    assert play(state, "t1 f") == expected


@pytest.mark.parametrize("index", [2, 3, 4, 5, 6, 7, 8])
def test_ace_starts_no_other_foundation(index: int) -> None:
    assert_illegal(little_billie(["5d Ac"]), f"t1 f{index}")


def test_king_starts_the_down_foundation_of_its_suit() -> None:
    state = little_billie(["5c Kd"])
    expected = little_billie(["5c"], foundations=["", "", "", "", "", "Kd"])
    assert play(state, "t1 f6") == expected
    assert play(state, "t1 f") == expected


@pytest.mark.parametrize("index", [1, 2, 3, 4, 5, 7, 8])
def test_king_starts_no_other_foundation(index: int) -> None:
    assert_illegal(little_billie(["5c Kd"]), f"t1 f{index}")


@pytest.mark.parametrize("card", ["2h", "9s", "Qd"])
def test_only_aces_and_kings_start_a_foundation(card: str) -> None:
    assert_illegal(little_billie([card]), "t1 f")


def test_up_foundation_builds_up_in_suit() -> None:
    state = little_billie(["2c"], foundations=["Ac"])
    assert play(state, "t1 f1") == little_billie(foundations=["2c"])
    assert_illegal(little_billie(["3c"], foundations=["Ac"]), "t1 f1")
    assert_illegal(little_billie(["2d"], foundations=["Ac", "Ad"]), "t1 f1")


def test_down_foundation_builds_down_in_suit() -> None:
    down = ["", "", "", "", "Kc", "Kd"]
    state = little_billie(["Qc"], foundations=down)
    assert play(state, "t1 f5") == little_billie(foundations=[*down[:4], "Qc", "Kd"])
    assert_illegal(little_billie(["Jc"], foundations=down), "t1 f5")
    assert_illegal(little_billie(["Qd"], foundations=down), "t1 f5")


def test_up_foundation_ends_at_king() -> None:
    state = little_billie(["Ac"], foundations=["Kc", "", "", "", "2c"])
    assert_illegal(state, "t1 f1")
    assert play(state, "t1 f") == little_billie(foundations=["Kc", "", "", "", "Ac"])


def test_down_foundation_ends_at_ace() -> None:
    state = little_billie(["Kc"], foundations=["Qc", "", "", "", "Ac"])
    assert_illegal(state, "t1 f5")
    assert play(state, "t1 f") == little_billie(foundations=["Kc", "", "", "", "Ac"])


def test_card_that_fits_both_foundations_goes_where_the_player_says() -> None:
    both = ["", "", "6h", "", "", "", "8h"]
    state = little_billie(["7h"], foundations=both)
    assert play(state, "t1 f3") == little_billie(foundations=["", "", "7h", "", "", "", "8h"])
    assert play(state, "t1 f7") == little_billie(foundations=["", "", "6h", "", "", "", "7h"])
    assert play(state, "t1 f") == play(state, "t1 f3")
    home = {move.dst_index for move in legal_moves(state) if move.dst == "f"}
    assert home == {2, 6}


def test_foundation_total_counts_every_card_beneath_the_top() -> None:
    assert progress(little_billie(foundations=["", "", "5h", "", "", "", "9h"])) == 10
    assert progress(little_billie(foundations=COMPLETE)) == 104


# Fans


def test_only_a_fans_top_card_moves() -> None:
    state = little_billie(["Ac 5d"])
    assert_illegal(state, "t1 f1")
    assert_refused(state, "t1:2 f1")


def test_no_run_moves_even_one_that_would_build_on_a_foundation() -> None:
    assert_refused(little_billie(["3c 2c"], foundations=["Ac"]), "t1:2 f1")


@pytest.mark.parametrize(("fans", "text"), [(["5d", "6c"], "t1 t2"), (["5d", "6c"], "t1:1 t2")])
def test_nothing_is_built_on_a_fan(fans: list[str], text: str) -> None:
    assert_illegal(little_billie(fans), text)


def test_an_empty_fan_takes_nothing() -> None:
    state = little_billie(["5d Kc", "", "Qh"])
    assert_illegal(state, "t1 t2")
    assert_illegal(state, "t3 t2")


def test_an_emptied_fan_stays_empty() -> None:
    state = little_billie(["Ac", "5d"])
    after = play(state, "t1 f1")
    assert after == little_billie(["", "5d"], foundations=["Ac"])
    assert_illegal(after, "t2 t1")


@pytest.mark.parametrize("text", ["t27 f", "t1 f9", "w t1", "w f", "r t1", "r f"])
def test_piles_the_variant_lacks_are_invalid(text: str) -> None:
    assert_invalid(little_billie(["Ac", "Kd"]), text)


@pytest.mark.parametrize("text", ["draw", "recycle", "deal"])
def test_no_stock_and_no_waste(text: str) -> None:
    assert_refused(little_billie(["Ac", "Kd"]), text)


# Redeals


def test_redeal_gathers_the_fans_and_deals_fans_of_four_last_short() -> None:
    state = little_billie(BLOCKED_FANS, foundations=CLUBS_LEFT)
    after = play(state, "redeal")
    assert_dealt_in_fans_of_four(after, 5)
    assert fan_cards(after) == Counter(cards("5c 4c 3c 2c Ac"))
    assert after.foundations == state.foundations
    assert (after.passes, after.seed, after.stock, after.waste) == (1, BILLIE_SEED, (), ())


def test_redeal_of_many_cards() -> None:
    state = little_billie(HEARTS_FANS, foundations=HEARTS_LEFT)
    after = play(state, "redeal")
    assert_dealt_in_fans_of_four(after, 26)
    assert fan_cards(after) == fan_cards(state)


def test_players_with_the_same_cards_left_get_the_same_fans() -> None:
    one = little_billie(BLOCKED_FANS, foundations=CLUBS_LEFT)
    other = little_billie(["", "Ac 2c", "", "4c 5c 3c"], foundations=CLUBS_LEFT)
    assert play(one, "redeal") == play(other, "redeal")
    many = little_billie(HEARTS_FANS, foundations=HEARTS_LEFT)
    spread = little_billie(HEARTS_FANS_TOO, foundations=HEARTS_LEFT)
    assert play(many, "redeal") == play(spread, "redeal")


def test_redeal_shuffles_by_race_seed_and_deal_number() -> None:
    state = little_billie(HEARTS_FANS, foundations=HEARTS_LEFT)
    dealt = play(state, "redeal").tableau
    assert play(replace(state, seed=b"another race"), "redeal").tableau != dealt
    assert play(replace(state, passes=1), "redeal").tableau != dealt


def test_redeal_only_when_no_fan_top_fits() -> None:
    state = little_billie(["4c 3c", "2c Ac", "5c"], foundations=CLUBS_LEFT)
    assert_illegal(state, "redeal")


@pytest.mark.parametrize("passes", [0, 1])
def test_two_redeals_are_allowed(passes: int) -> None:
    state = little_billie(BLOCKED_FANS, foundations=CLUBS_LEFT, passes=passes)
    assert play(state, "redeal").passes == passes + 1


def test_no_third_redeal_three_deals_in_all() -> None:
    assert_illegal(little_billie(BLOCKED_FANS, foundations=CLUBS_LEFT, passes=2), "redeal")


# Outcome


def test_won_when_every_card_is_on_the_foundations() -> None:
    state = little_billie(foundations=COMPLETE, passes=2)
    assert outcome(state) is Outcome.WON
    assert view(state).outcome == "won"


@pytest.mark.parametrize("passes", [0, 1])
def test_playing_while_a_redeal_is_left(passes: int) -> None:
    state = little_billie(BLOCKED_FANS, foundations=CLUBS_LEFT, passes=passes)
    assert outcome(state) is Outcome.PLAYING


def test_stuck_when_no_top_fits_and_no_redeal_is_left() -> None:
    state = little_billie(BLOCKED_FANS, foundations=CLUBS_LEFT, passes=2)
    assert outcome(state) is Outcome.STUCK
    assert view(state).outcome == "stuck"
    assert legal_moves(state) == []


def test_playing_while_a_top_fits_after_the_last_redeal() -> None:
    state = little_billie(["4c 3c", "2c Ac", "5c"], foundations=CLUBS_LEFT, passes=2)
    assert outcome(state) is Outcome.PLAYING


# View and deal


@pytest.mark.parametrize("passes", [0, 1, 2])
def test_view_shows_every_card_and_counts_the_redeals_left(passes: int) -> None:
    shown = view(little_billie(["5d Ac"], foundations=["", "", "3h", "", "Qc"], passes=passes))
    assert shown.variant == BILLIE
    assert shown.tableau == (("5d", "Ac"),) + ((),) * 25
    assert shown.foundations == (None, None, "3h", None, "Qc", None, None, None)
    assert (shown.stock, shown.waste, shown.reserve, shown.reserve_hidden) == (0, (), None, 0)
    assert (shown.passes_left, shown.progress, shown.total) == (2 - passes, 5, 104)


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_is_26_face_up_fans_of_four(seed: bytes) -> None:
    state = new_game(BILLIE, seed)
    assert state.variant == BILLIE
    assert [len(fan) for fan in state.tableau] == [4] * 26
    assert state.foundations == (EMPTY,) * 8
    assert (state.stock, state.waste, state.reserve, state.passes) == ((), (), (), 0)
    assert state.seed == seed
    assert fan_cards(state) == Counter(list(range(52)) * 2)
    shown = view(state)
    assert shown.tableau == tuple(tuple(format_card(c) for c in fan) for fan in state.tableau)
    assert (shown.stock, shown.passes_left, shown.progress, shown.total) == (0, 2, 0, 104)
