"""Little Milligan: each rule of the seed text and of RULES.md, legal and illegal side."""

from collections import Counter

import pytest

from engine import Outcome, legal_moves, new_game, outcome, progress, view
from engine.cards import format_card
from engine.state import EMPTY
from tests.engine._positions import (
    MILLIGAN,
    assert_illegal,
    assert_invalid,
    assert_refused,
    little_milligan,
    play,
)

# Black tops only and no Ace: nothing builds, nothing goes home, no pile is empty.
DEAD_TABLEAU = ["Kh 5c", "5s", "7c", "7s", "9c", "9s", "Jc", "Js"]
SEEDS = [b"m", b"little milligan race", bytes(range(64))]


# Foundations


def test_an_ace_starts_an_empty_foundation() -> None:
    state = little_milligan(["5h Ac"])
    assert play(state, "t1 f1") == little_milligan(["5h"], foundations=["Ac"])
    assert play(state, "t1 f") == little_milligan(["5h"], foundations=["Ac"])


@pytest.mark.parametrize("card", ["2c", "Kc", "5h"])
def test_only_an_ace_starts_an_empty_foundation(card: str) -> None:
    state = little_milligan([card])
    assert_illegal(state, "t1 f1")
    assert_illegal(state, "t1 f")


def test_foundation_builds_up_in_suit() -> None:
    state = little_milligan(["2h"], foundations=["Ac", "Ad", "Ah", "As"])
    expected = little_milligan(foundations=["Ac", "Ad", "2h", "As"])
    assert play(state, "t1 f3") == expected
    assert play(state, "t1 f") == expected


@pytest.mark.parametrize(("card", "index"), [("2h", 1), ("2h", 2), ("2h", 4), ("3c", 1)])
def test_foundation_refuses_another_suit_or_rank(card: str, index: int) -> None:
    state = little_milligan([card], foundations=["Ac", "Ad", "Ah", "As"])
    assert_illegal(state, f"t1 f{index}")


def test_foundation_takes_the_king_last() -> None:
    state = little_milligan(["Kd"], foundations=["Kc", "Qd", "Kh", "Ks"])
    after = play(state, "t1 f2")
    assert after == little_milligan(foundations=["Kc", "Kd", "Kh", "Ks"])
    assert progress(after) == 52


# Building and runs


@pytest.mark.parametrize(("card", "onto"), [("9h", "Ts"), ("9d", "Tc"), ("9s", "Th"), ("9c", "Td")])
def test_tableau_builds_down_in_alternating_colour(card: str, onto: str) -> None:
    state = little_milligan(["4d " + card, onto])
    assert play(state, "t1 t2") == little_milligan(["4d", f"{onto} {card}"])


@pytest.mark.parametrize(
    ("card", "onto"), [("9h", "Td"), ("9d", "Th"), ("9s", "Tc"), ("8h", "Ts"), ("Ts", "9h")]
)
def test_tableau_refuses_same_colour_or_wrong_rank(card: str, onto: str) -> None:
    assert_illegal(little_milligan(["4d " + card, onto]), "t1 t2")


def test_alternating_run_moves_as_a_unit() -> None:
    state = little_milligan(["Ts 9h 8c", "Jd"])
    assert play(state, "t1 t2") == little_milligan(["", "Jd Ts 9h 8c"])
    assert play(state, "t1:3 t2") == little_milligan(["", "Jd Ts 9h 8c"])


def test_run_moves_from_any_card_of_the_run() -> None:
    state = little_milligan(["4d Ts 9h 8c", "Tc"])
    assert play(state, "t1 t2") == little_milligan(["4d Ts", "Tc 9h 8c"])
    assert play(state, "t1:2 t2") == little_milligan(["4d Ts", "Tc 9h 8c"])
    assert_illegal(state, "t1:1 t2")


def test_cards_of_one_colour_do_not_move_as_a_unit() -> None:
    state = little_milligan(["Ts 9c 8h", "Jd", "Th"])
    assert_illegal(state, "t1:3 t2")
    assert_illegal(state, "t1 t2")
    assert play(state, "t1 t3") == little_milligan(["Ts", "Jd", "Th 9c 8h"])
    assert_illegal(little_milligan(["Ts 9s", "Jh"]), "t1:2 t2")


# Empty piles


def test_empty_pile_takes_a_king() -> None:
    state = little_milligan(["5c Kh", "9d"])
    assert play(state, "t1 t3") == little_milligan(["5c", "9d", "Kh"])


def test_empty_pile_takes_a_run_headed_by_a_king() -> None:
    state = little_milligan(["5c Kh Qs Jd"])
    expected = little_milligan(["5c", "", "Kh Qs Jd"])
    assert play(state, "t1 t3") == expected
    assert play(state, "t1:3 t3") == expected


@pytest.mark.parametrize(("pile", "text"), [("5c Qh", "t1 t2"), ("Kh Qs Jd", "t1:2 t2")])
def test_empty_pile_refuses_anything_not_headed_by_a_king(pile: str, text: str) -> None:
    assert_illegal(little_milligan([pile]), text)


def test_empty_pile_refuses_a_single_card_from_under_a_king() -> None:
    assert_illegal(little_milligan(["Kh Qs Jd"]), "t1:1 t2")


def test_moving_a_whole_pile_into_an_empty_pile_changes_nothing() -> None:
    state = little_milligan(["Kh Qs", "9c"])
    assert play(state, "t1:2 t3") == state


# Dealing from the stock


def test_deal_puts_one_card_on_each_pile_left_to_right() -> None:
    tableau = ["Kc", "Kd", "Kh", "Ks", "Qc", "Qh", "Qs", "Jc"]
    state = little_milligan(tableau, stock="Qd Jd 8s 7s 6s 5s 4s 3s 2s As")
    dealt = ["Kc As", "Kd 2s", "Kh 3s", "Ks 4s", "Qc 5s", "Qh 6s", "Qs 7s", "Jc 8s"]
    assert play(state, "deal") == little_milligan(dealt, stock="Qd Jd")


def test_deal_covers_empty_piles_too() -> None:
    state = little_milligan(["Kc", "", "Kh"], stock="8d 7d 6d 5d 4d 3d 2d Ad")
    dealt = ["Kc Ad", "2d", "Kh 3d", "4d", "5d", "6d", "7d", "8d"]
    assert play(state, "deal") == little_milligan(dealt)


def test_last_deal_of_four_covers_piles_one_to_four() -> None:
    state = little_milligan(DEAD_TABLEAU, stock="4h 3h 2h Ah")
    dealt = ["Kh 5c Ah", "5s 2h", "7c 3h", "7s 4h", *DEAD_TABLEAU[4:]]
    assert play(state, "deal") == little_milligan(dealt)


def test_deal_is_allowed_while_other_moves_remain() -> None:
    state = little_milligan(["Ac", "Ts", "9h"], stock="Kd")
    assert play(state, "deal") == little_milligan(["Ac Kd", "Ts", "9h"])


def test_no_deal_once_the_stock_is_empty() -> None:
    assert_illegal(little_milligan(["Ac", "Ts", "9h"]), "deal")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_game_has_five_full_deals_and_a_last_one_of_four(seed: bytes) -> None:
    dealt = new_game(MILLIGAN, seed)
    state = play(dealt, "deal")
    first_row = [pile[-1] for pile in state.tableau]
    assert first_row == list(reversed(dealt.stock[-8:]))
    state = play(state, *["deal"] * 5)
    assert [len(pile) for pile in state.tableau] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert state.stock == ()
    assert_illegal(state, "deal")


@pytest.mark.parametrize("text", ["recycle", "draw", "redeal"])
def test_no_redeal_no_waste(text: str) -> None:
    assert_refused(little_milligan(["Ac"], stock="Kd"), text)
    assert_refused(little_milligan(["Ac"]), text)


@pytest.mark.parametrize("text", ["t9 t1", "t1 t9", "t1 f5", "w t1", "w f", "r t1", "r f"])
def test_piles_the_variant_lacks_are_invalid(text: str) -> None:
    assert_invalid(little_milligan(["Ac", "Kd"], stock="Qc"), text)


# Outcome


def test_won_when_all_52_cards_are_on_the_foundations() -> None:
    state = little_milligan(foundations=["Kc", "Kd", "Kh", "Ks"])
    assert outcome(state) is Outcome.WON
    assert view(state).outcome == "won"


@pytest.mark.parametrize("stock", ["Ah", "2c", "Qd Jd 8s 7s 6s 5s 4s 3s 2s As"])
def test_never_stuck_while_the_stock_has_cards(stock: str) -> None:
    assert outcome(little_milligan(DEAD_TABLEAU, stock=stock)) is Outcome.PLAYING


def test_stuck_when_the_stock_is_empty_and_no_move_is_left() -> None:
    state = little_milligan(DEAD_TABLEAU)
    assert outcome(state) is Outcome.STUCK
    assert view(state).outcome == "stuck"
    assert legal_moves(state) == []


def test_playing_while_a_tableau_move_is_left() -> None:
    assert outcome(little_milligan([*DEAD_TABLEAU[:7], "Js Th"])) is Outcome.PLAYING
    assert outcome(little_milligan([*DEAD_TABLEAU[:7], "Js Ah"])) is Outcome.PLAYING


def test_stuck_ignores_moving_a_king_pile_into_an_empty_pile() -> None:
    state = little_milligan(["Kh Qs", *DEAD_TABLEAU[1:7]])
    assert play(state, "t1 t8") == state
    assert outcome(state) is Outcome.STUCK
    assert legal_moves(state) == []


# View and deal


def test_view_counts_the_stock_and_has_no_waste_or_reserve() -> None:
    shown = view(little_milligan(["Kh Qs"], foundations=["3c"], stock="Qd Jd 8s"))
    assert shown.variant == MILLIGAN
    assert shown.tableau == (("Kh", "Qs"),) + ((),) * 7
    assert shown.foundations == ("3c", None, None, None)
    assert (shown.stock, shown.waste, shown.reserve, shown.reserve_hidden) == (3, (), None, 0)
    assert (shown.passes_left, shown.base_rank, shown.progress, shown.total) == (0, 1, 3, 52)


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_is_eight_face_up_cards_and_a_stock_of_44(seed: bytes) -> None:
    state = new_game(MILLIGAN, seed)
    assert state.variant == MILLIGAN
    assert [len(pile) for pile in state.tableau] == [1] * 8
    assert state.foundations == (EMPTY,) * 4
    assert (len(state.stock), state.waste, state.reserve) == (44, (), ())
    every_card = [c for pile in state.tableau for c in pile] + list(state.stock)
    assert Counter(every_card) == Counter(range(52))
    shown = view(state)
    assert shown.tableau == tuple((format_card(pile[0]),) for pile in state.tableau)
    assert (shown.stock, shown.passes_left, shown.progress, shown.total) == (44, 0, 0, 52)
