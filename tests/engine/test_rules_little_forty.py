"""Little Forty: each rule of the seed text and of RULES.md, legal and illegal side."""

from collections import Counter

import pytest

from engine import Move, Outcome, legal_moves, new_game, outcome, progress, view
from engine.cards import format_card
from engine.state import EMPTY
from tests.engine._positions import (
    FORTY,
    assert_illegal,
    assert_invalid,
    assert_refused,
    little_forty,
    play,
)

# Tops of rank 2 and 5 only: no top fits on another, no foundation takes one,
# and only Aces and 4s fit anywhere.
DEAD_TABLEAU = ["Kc 2c", "2d", "2h", "2s", "5c", "5d", "5h", "5s", "2c", "Qh 2d"]
ALL_KINGS = ["Kc", "Kc", "Kd", "Kd", "Kh", "Kh", "Ks", "Ks"]
SEEDS = [b"a", b"little forty race", bytes(range(64))]


# Foundations


def test_foundation_builds_up_in_suit() -> None:
    state = little_forty(["2h"], foundations=["Ah"])
    assert play(state, "t1 f1") == little_forty(foundations=["2h"])


@pytest.mark.parametrize(("top", "card"), [("Ah", "2c"), ("Ah", "2d"), ("5s", "6c")])
def test_foundation_refuses_a_card_of_another_suit(top: str, card: str) -> None:
    assert_illegal(little_forty([card], foundations=[top]), "t1 f1")


@pytest.mark.parametrize(("top", "card"), [("Ah", "3h"), ("Ah", "Ah"), ("3h", "2h")])
def test_foundation_refuses_a_card_not_one_rank_higher(top: str, card: str) -> None:
    assert_illegal(little_forty([card], foundations=[top]), "t1 f1")


@pytest.mark.parametrize("index", range(8))
@pytest.mark.parametrize("ace", ["Ac", "Ah", "As"])
def test_any_ace_starts_any_empty_foundation(ace: str, index: int) -> None:
    state = little_forty([ace])
    expected = little_forty(foundations=[""] * index + [ace])
    assert play(state, f"t1 f{index + 1}") == expected


@pytest.mark.parametrize("card", ["2h", "7c", "Ks"])
def test_only_an_ace_starts_an_empty_foundation(card: str) -> None:
    state = little_forty([card])
    assert_illegal(state, "t1 f1")
    assert_illegal(state, "t1 f")


def test_both_aces_of_a_suit_start_their_own_foundations() -> None:
    state = little_forty(["Ah", "Ah"], foundations=["Ah"])
    assert_illegal(state, "t1 f1")
    assert play(state, "t1 f2", "t2 f3") == little_forty(foundations=["Ah", "Ah", "Ah"])


def test_foundation_ends_at_king_without_wrapping() -> None:
    state = little_forty(["As Ks"], foundations=["Qs"])
    after = play(state, "t1 f1")
    assert after == little_forty(["As"], foundations=["Ks"])
    assert_illegal(after, "t1 f1")


def test_f_without_index_picks_the_first_foundation_that_fits() -> None:
    state = little_forty(["2h", "Ac"], foundations=["", "Ah", "", "Ah"])
    assert play(state, "t1 f") == little_forty(["", "Ac"], foundations=["", "2h", "", "Ah"])
    assert play(state, "t2 f") == little_forty(["2h"], foundations=["Ac", "Ah", "", "Ah"])


def test_foundation_total_counts_every_card_beneath_the_top() -> None:
    assert progress(little_forty(foundations=["5h", "Kc", "", "Ac"])) == 5 + 13 + 1
    assert progress(little_forty(foundations=ALL_KINGS)) == 104


# Building on the tableau


@pytest.mark.parametrize(("card", "onto"), [("9s", "Th"), ("8d", "9c"), ("8h", "9h"), ("Qc", "Ks")])
def test_tableau_builds_down_by_rank_in_any_suit(card: str, onto: str) -> None:
    state = little_forty(["3c " + card, onto])
    assert play(state, "t1 t2") == little_forty(["3c", f"{onto} {card}"])


@pytest.mark.parametrize(
    ("card", "onto"), [("9s", "9h"), ("8s", "Th"), ("Th", "9s"), ("Kc", "Ad"), ("2c", "Ah")]
)
def test_tableau_refuses_a_card_not_one_rank_lower(card: str, onto: str) -> None:
    assert_illegal(little_forty(["3c " + card, onto]), "t1 t2")
    assert_illegal(little_forty(["3c " + card, onto]), "t1:1 t2")


# Runs


def test_descending_run_moves_as_a_unit_regardless_of_suit() -> None:
    state = little_forty(["Tc 9c 8h", "Js"])
    assert play(state, "t1 t2") == little_forty(["", "Js Tc 9c 8h"])
    assert play(state, "t1:3 t2") == little_forty(["", "Js Tc 9c 8h"])


def test_run_moves_from_any_card_of_the_run() -> None:
    state = little_forty(["5d Tc 9c 8h", "Ts"])
    expected = little_forty(["5d Tc", "Ts 9c 8h"])
    assert play(state, "t1 t2") == expected
    assert play(state, "t1:2 t2") == expected


def test_engine_picks_the_one_run_that_fits_the_destination() -> None:
    state = little_forty(["Kd Qc Jh Ts 9s", "Qd", "Th"])
    assert play(state, "t1 t2") == little_forty(["Kd Qc", "Qd Jh Ts 9s", "Th"])
    assert play(state, "t1 t3") == little_forty(["Kd Qc Jh Ts", "Qd", "Th 9s"])


def test_given_count_must_fit_the_destination() -> None:
    state = little_forty(["Tc 9c 8h", "Ts"])
    assert_illegal(state, "t1:3 t2")
    assert_illegal(state, "t1:1 t2")


def test_engine_picked_run_must_fit_somewhere_in_the_run() -> None:
    assert_illegal(little_forty(["Tc 9c 8h", "5s"]), "t1 t2")
    assert_illegal(little_forty(["Tc 9c 8h", "Ks"]), "t1 t2")


def test_cards_out_of_descending_order_cannot_move_as_a_unit() -> None:
    state = little_forty(["Tc 8c 7h", "Jd", "9d"])
    assert_illegal(state, "t1:3 t2")
    assert_illegal(state, "t1 t2")
    assert play(state, "t1:2 t3") == little_forty(["Tc", "Jd", "9d 8c 7h"])


def test_equal_ranks_do_not_make_a_run() -> None:
    state = little_forty(["9c 9h", "Ts"])
    assert_illegal(state, "t1:2 t2")
    assert play(state, "t1 t2") == little_forty(["9c", "Ts 9h"])


def test_run_longer_than_the_pile_is_refused() -> None:
    assert_refused(little_forty(["9c 8h", "Ts"]), "t1:3 t2")


def test_moving_from_an_empty_pile_is_illegal() -> None:
    assert_illegal(little_forty(["", "Ts"]), "t1 t2")


# Empty piles


@pytest.mark.parametrize("card", ["2c", "7h", "Kd", "Ad"])
def test_empty_pile_takes_any_card(card: str) -> None:
    state = little_forty(["Qs " + card, "5h"])
    assert play(state, "t1 t3") == little_forty(["Qs", "5h", card])


def test_empty_pile_takes_a_run_from_any_card_of_it() -> None:
    state = little_forty(["Kc 9h 8s 7d"])
    assert play(state, "t1:2 t2") == little_forty(["Kc 9h", "8s 7d"])
    assert play(state, "t1:3 t4") == little_forty(["Kc", "", "", "9h 8s 7d"])


def test_empty_pile_takes_a_card_while_the_stock_still_has_cards() -> None:
    state = little_forty(["9s"], stock="Kc Qc", waste="4d 6h")
    assert play(state, "w t2") == little_forty(["9s", "6h"], stock="Kc Qc", waste="4d")


def test_emptied_pile_is_not_filled_automatically() -> None:
    state = little_forty(["Ah", "5c"], stock="Kc", waste="Qd")
    after = play(state, "t1 f1")
    assert after == little_forty(["", "5c"], foundations=["Ah"], stock="Kc", waste="Qd")


# Stock and waste


@pytest.mark.parametrize("passes", [0, 1])
def test_waste_may_be_turned_over_twice(passes: int) -> None:
    state = little_forty(waste="Kc Qd", passes=passes)
    assert play(state, "recycle") == little_forty(stock="Qd Kc", passes=passes + 1)


def test_no_third_turn_over_three_passes_in_all() -> None:
    state = little_forty(waste="Kc Qd")
    third_pass = play(state, "recycle", "draw", "recycle", "draw")
    assert third_pass == little_forty(waste="Kc Qd", passes=2)
    assert_illegal(third_pass, "recycle")


# Outcome


def test_won_when_all_104_cards_are_on_the_foundations() -> None:
    state = little_forty(foundations=ALL_KINGS, passes=2)
    assert outcome(state) is Outcome.WON
    assert view(state).outcome == "won"


def test_playing_while_a_move_is_left() -> None:
    state = little_forty(DEAD_TABLEAU, waste="Jh 4s")
    assert outcome(state) is Outcome.PLAYING
    assert outcome(new_game(FORTY, b"x")) is Outcome.PLAYING


def test_stuck_when_no_move_and_no_turn_over_left() -> None:
    state = little_forty(DEAD_TABLEAU, waste="4s 9s", passes=2)
    assert outcome(state) is Outcome.STUCK
    assert view(state).outcome == "stuck"
    assert legal_moves(state) == []


def test_playing_while_a_turn_over_brings_a_card_that_fits_to_the_top() -> None:
    assert outcome(little_forty(DEAD_TABLEAU, waste="Kc Qd 4s 9s", passes=1)) is Outcome.PLAYING
    assert outcome(little_forty(DEAD_TABLEAU, waste="Kc Qd 4s 9s", passes=2)) is Outcome.STUCK


def test_playing_while_the_last_pass_still_holds_a_card_that_fits() -> None:
    state = little_forty(DEAD_TABLEAU, stock="4s Qd Kc", passes=2)
    assert outcome(state) is Outcome.PLAYING


def test_playing_when_the_next_pass_brings_a_buried_card_to_the_top() -> None:
    """This pass draws 4s-Kc and buries the 4s; after the turn over, Qd-Jh-4s shows it."""
    assert outcome(little_forty(DEAD_TABLEAU, stock="Kc 4s", waste="Qd Jh", passes=1)) == (
        Outcome.PLAYING
    )
    assert outcome(little_forty(DEAD_TABLEAU, stock="Kc 4s", waste="Qd Jh", passes=2)) == (
        Outcome.STUCK
    )


def test_stuck_when_no_stock_or_waste_card_could_ever_play() -> None:
    state = little_forty(DEAD_TABLEAU, stock="Kc Qd 9s", waste="Jh 3c")
    assert outcome(state) is Outcome.STUCK
    assert {move.action for move in legal_moves(state)} <= {"draw", "recycle"}


def test_stuck_when_the_card_that_fits_stays_buried_under_draw_three() -> None:
    """Draws of three always cover the 4s: it can never be played in any pass."""
    state = little_forty(DEAD_TABLEAU, stock="Kc Qd 9s 4s", passes=1)
    assert outcome(state) is Outcome.STUCK


def test_stuck_ignores_moves_that_change_nothing() -> None:
    state = little_forty(["9h", "5c"], passes=2)
    assert play(state, "t1 t3") == state
    assert outcome(state) is Outcome.STUCK
    assert legal_moves(state) == []


# Legal moves, notation limits, view and deal


def test_legal_moves_leave_out_moves_that_change_nothing() -> None:
    state = little_forty(["Kc 9h 8s", "Tc"] + ["5d"] * 7)
    moves = legal_moves(state)
    assert Move("move", "t", 0, 2, "t", 1) in moves
    assert Move("move", "t", 0, 1, "t", 9) in moves
    assert Move("move", "t", 1, 1, "t", 9) not in moves
    for move in moves:
        assert move.dst_index is not None
        assert move.count is not None
        assert play(state, move.format()) != state


@pytest.mark.parametrize("text", ["t11 t1", "t1 t11", "t1 f9", "r t1", "r f"])
def test_piles_the_variant_lacks_are_invalid(text: str) -> None:
    assert_invalid(little_forty(["Ah", "Ks"], stock="Qc"), text)


@pytest.mark.parametrize("text", ["deal", "redeal"])
def test_actions_of_other_variants_are_refused(text: str) -> None:
    assert_refused(little_forty(["Ah", "Ks"], stock="Qc"), text)


def test_view_shows_the_waste_and_counts_the_stock() -> None:
    shown = view(little_forty(["Tc 9h"], foundations=["3d"], stock="Kc Qd 9s", waste="Jh 4s"))
    assert shown.variant == FORTY
    assert shown.tableau == (("Tc", "9h"),) + ((),) * 9
    assert shown.foundations == ("3d",) + (None,) * 7
    assert (shown.stock, shown.waste) == (3, ("Jh", "4s"))
    assert (shown.reserve, shown.reserve_hidden) == (None, 0)
    assert (shown.passes_left, shown.base_rank) == (2, 1)
    assert (shown.progress, shown.total) == (3, 104)


@pytest.mark.parametrize("passes", [0, 1, 2])
def test_view_counts_the_turn_overs_left(passes: int) -> None:
    assert view(little_forty(waste="Kc", passes=passes)).passes_left == 2 - passes


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_is_ten_face_up_piles_of_four_and_a_stock_of_64(seed: bytes) -> None:
    state = new_game(FORTY, seed)
    assert state.variant == FORTY
    assert [len(pile) for pile in state.tableau] == [4] * 10
    assert state.foundations == (EMPTY,) * 8
    assert (len(state.stock), state.waste, state.reserve, state.passes) == (64, (), (), 0)
    every_card = [c for pile in state.tableau for c in pile] + list(state.stock)
    assert Counter(every_card) == Counter(list(range(52)) * 2)
    shown = view(state)
    assert shown.tableau == tuple(tuple(format_card(c) for c in p) for p in state.tableau)
    assert (shown.stock, shown.passes_left, shown.progress, shown.total) == (64, 2, 0, 104)
