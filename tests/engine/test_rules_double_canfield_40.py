"""Double Canfield 40: each rule of the seed text and of RULES.md, legal and illegal side."""

from collections import Counter
from functools import partial

import pytest

from engine import InvalidMove, Move, Outcome, legal_moves, new_game, outcome, progress, view
from engine.cards import format_card, rank_of
from engine.state import EMPTY
from tests.engine._positions import (
    CANFIELD,
    assert_illegal,
    assert_invalid,
    assert_refused,
    double_canfield,
    play,
)

# Black tops only: no column builds on another, and with base rank 3 and the
# hearts foundation waiting for the 4h, no black card but a 3 ever goes home.
DEAD_COLUMNS = ["5c", "Kh 5s", "9c", "9s", "Jc", "Js"]
SEEDS = [b"c", b"double canfield race", bytes(range(64))]
# Positions here build their foundations from rank 3 unless they say otherwise.
canfield = partial(double_canfield, base_rank=3)


# Foundations


def test_foundation_builds_up_in_suit_from_the_base_rank() -> None:
    state = canfield(["4h"], foundations=["3h"])
    assert play(state, "t1 f1") == canfield(foundations=["4h"])


@pytest.mark.parametrize("card", ["4d", "4s", "5h", "2h", "3h"])
def test_foundation_refuses_another_suit_or_rank(card: str) -> None:
    assert_illegal(canfield([card], foundations=["3h"]), "t1 f1")


def test_foundation_wraps_from_king_to_ace() -> None:
    state = canfield(["2h Ah"], foundations=["Kh"])
    after = play(state, "t1 f1", "t1 f1")
    assert after == canfield(foundations=["2h"])


def test_foundation_ends_one_rank_below_the_base_with_13_cards() -> None:
    state = canfield(["3h"], foundations=["2h"])
    assert progress(state) == 13
    assert_illegal(state, "t1 f1")
    assert play(state, "t1 f") == canfield(foundations=["2h", "3h"])


@pytest.mark.parametrize("index", range(2, 9))
@pytest.mark.parametrize("card", ["3s", "3h"])
def test_any_base_rank_card_starts_any_empty_foundation(card: str, index: int) -> None:
    state = canfield([card], foundations=["3h"])
    expected = ["3h"] + [""] * (index - 2) + [card]
    assert play(state, f"t1 f{index}") == canfield(foundations=expected)


@pytest.mark.parametrize("card", ["Ac", "2c", "4c", "Kc"])
def test_only_a_base_rank_card_starts_an_empty_foundation(card: str) -> None:
    state = canfield([card], foundations=["3h"])
    assert_illegal(state, "t1 f2")
    assert_illegal(state, "t1 f")


def test_base_rank_ace_ends_at_the_king() -> None:
    state = canfield(["As"], foundations=["Ks", "Qs"], base_rank=1)
    assert_illegal(state, "t1 f1")
    assert_illegal(state, "t1 f2")
    assert play(state, "t1 f") == canfield(foundations=["Ks", "Qs", "As"], base_rank=1)


def test_base_rank_king_goes_on_through_ace_to_queen() -> None:
    state = canfield(["Qh Ah"], foundations=["Kh", "Jh"], base_rank=13)
    after = play(state, "t1 f1")
    assert after == canfield(["Qh"], foundations=["Ah", "Jh"], base_rank=13)
    assert play(after, "t1 f2") == canfield(foundations=["Ah", "Qh"], base_rank=13)
    assert_illegal(canfield(["Kh"], foundations=["Qh"], base_rank=13), "t1 f1")


def test_foundation_total_counts_from_the_base_rank() -> None:
    state = canfield(foundations=["2h", "5c", "3d", "Ac"])
    assert progress(state) == 13 + 3 + 1 + 12


def test_f_without_index_picks_the_first_foundation_that_fits() -> None:
    state = canfield(["6d"], foundations=["5h", "5d", "", "5d"], base_rank=5)
    expected = canfield(foundations=["5h", "6d", "", "5d"], base_rank=5)
    assert play(state, "t1 f") == expected


# Columns


@pytest.mark.parametrize(
    "pair", ["6h 7s", "6d 7c", "6c 7h", "Qd Ks", "Ac 2h", "Ks Ah", "Kc Ad", "Kh As", "Kd Ac"]
)
def test_column_builds_down_in_alternating_colour_wrapping_king_on_ace(pair: str) -> None:
    card, onto = pair.split()
    state = canfield(["9d " + card, onto])
    assert play(state, "t1 t2") == canfield(["9d", f"{onto} {card}"])


@pytest.mark.parametrize("pair", ["6h 7d", "6s 7c", "Ks Ac", "Kh Ad", "Ah Ks", "2s Ah", "5h 7s"])
def test_column_refuses_same_colour_or_wrong_rank(pair: str) -> None:
    card, onto = pair.split()
    assert_illegal(canfield(["9d " + card, onto]), "t1 t2")


def test_red_queen_black_jack_red_ten_move_together_onto_a_black_king() -> None:
    state = canfield(["Qh Js Td", "Kc"])
    assert play(state, "t1 t2") == canfield(["", "Kc Qh Js Td"])
    assert play(state, "t1:3 t2") == canfield(["", "Kc Qh Js Td"])


def test_run_moves_from_any_card_of_the_run() -> None:
    state = canfield(["9s 8h 7c", "9c"])
    assert play(state, "t1 t2") == canfield(["9s", "9c 8h 7c"])
    assert play(state, "t1:2 t2") == canfield(["9s", "9c 8h 7c"])
    assert_illegal(state, "t1:1 t2")
    assert_illegal(state, "t1:3 t2")


def test_run_wraps_through_king_on_ace() -> None:
    state = canfield(["Ah Ks Qh", "2c"])
    assert play(state, "t1 t2") == canfield(["", "2c Ah Ks Qh"])


def test_cards_breaking_the_build_rule_do_not_move_together() -> None:
    state = canfield(["9s 8s 7h", "Th", "9d"])
    assert_illegal(state, "t1:3 t2")
    assert_illegal(state, "t1 t2")
    assert play(state, "t1 t3") == canfield(["9s", "Th", "9d 8s 7h"])


def test_run_longer_than_the_column_is_refused() -> None:
    assert_refused(canfield(["8h 7c", "9s"]), "t1:3 t2")


# Empty columns


@pytest.mark.parametrize("card", ["Qh", "2d", "Ac", "Ks"])
def test_empty_column_takes_any_card(card: str) -> None:
    state = canfield(["5c " + card])
    assert play(state, "t1 t2") == canfield(["5c", card])


def test_empty_column_takes_a_run_from_any_card_of_it() -> None:
    state = canfield(["5c 9s 8h 7c"])
    assert play(state, "t1:2 t3") == canfield(["5c 9s", "", "8h 7c"])
    assert play(state, "t1:3 t2") == canfield(["5c", "9s 8h 7c"])


def test_empty_column_takes_the_reserve_or_discard_top() -> None:
    state = canfield(["5c"], reserve="Kd 7h", waste="3c 9s")
    expected = canfield(["5c", "7h"], reserve="Kd", waste="3c 9s")
    assert play(state, "r t2") == expected
    assert play(state, "w t3") == canfield(["5c", "", "9s"], reserve="Kd 7h", waste="3c")


def test_emptied_column_is_not_filled_from_the_reserve() -> None:
    state = canfield(["4h"], foundations=["3h"], reserve="Kd 7h")
    after = play(state, "t1 f1")
    assert after == canfield(foundations=["4h"], reserve="Kd 7h")


# Reserve


def test_reserve_top_plays_to_a_column_it_fits() -> None:
    state = canfield(["7s"], reserve="Kd 6h")
    assert play(state, "r t1") == canfield(["7s 6h"], reserve="Kd")
    assert_illegal(canfield(["7d"], reserve="Kd 6h"), "r t1")


def test_reserve_top_plays_to_a_foundation() -> None:
    state = canfield(["9c"], foundations=["3h"], reserve="9c 4h")
    expected = canfield(["9c"], foundations=["4h"], reserve="9c")
    assert play(state, "r f") == expected
    assert play(state, "r f1") == expected


def test_only_the_reserve_top_plays() -> None:
    state = canfield(["7s"], foundations=["3h"], reserve="6h 4h Kd")
    assert_illegal(state, "r t1")
    assert_illegal(state, "r f")


def test_next_reserve_card_turns_face_up_by_itself() -> None:
    state = canfield(["7s"], reserve="9c Kd 6h")
    before, after = view(state), view(play(state, "r t1"))
    assert (before.reserve, before.reserve_hidden) == ("6h", 2)
    assert (after.reserve, after.reserve_hidden) == ("Kd", 1)


def test_nothing_is_placed_on_the_reserve() -> None:
    with pytest.raises(InvalidMove):
        Move.parse("w r")
    moves = legal_moves(canfield(["Ks"], reserve="Qh", waste="Jc"))
    assert {move.dst for move in moves if move.action == "move"} == {"t"}


def test_an_empty_reserve_plays_nothing() -> None:
    state = canfield(["7s"], foundations=["3h"])
    assert_illegal(state, "r t1")
    assert_illegal(state, "r f")
    assert (view(state).reserve, view(state).reserve_hidden) == (None, 0)


# Stock and discard pile


@pytest.mark.parametrize("passes", [0, 2, 3, 50])
def test_turn_over_without_limit(passes: int) -> None:
    state = canfield(waste="Kc Qd", passes=passes)
    assert play(state, "recycle").stock == canfield(stock="Qd Kc").stock


@pytest.mark.parametrize("text", ["t7 t1", "t1 t7", "t1 f9"])
def test_piles_the_variant_lacks_are_invalid(text: str) -> None:
    assert_invalid(canfield(["As", "Kd"], reserve="Qc"), text)


@pytest.mark.parametrize("text", ["deal", "redeal"])
def test_actions_of_other_variants_are_refused(text: str) -> None:
    assert_refused(canfield(["As", "Kd"], reserve="Qc", stock="5d"), text)


# Outcome


def test_won_when_all_eight_foundations_hold_13_cards() -> None:
    state = canfield(foundations=["4c", "4c", "4d", "4d", "4h", "4h", "4s", "4s"], base_rank=5)
    assert outcome(state) is Outcome.WON
    assert progress(state) == 104
    assert view(state).outcome == "won"


def test_stuck_when_no_card_could_ever_play() -> None:
    state = canfield(
        DEAD_COLUMNS, foundations=["3h"], reserve="4h 7c", stock="Qs 8c 6s", waste="Tc"
    )
    assert outcome(state) is Outcome.STUCK
    assert view(state).outcome == "stuck"
    assert {move.action for move in legal_moves(state)} <= {"draw", "recycle"}


@pytest.mark.parametrize(
    ("stock", "waste"),
    [("4d Qs 8c", ""), ("", "Qs 8c 4d 6s"), ("Qs 6s", "8c 4d"), ("Kc 4d", "Qs Js")],
)
def test_playing_while_a_cycle_through_the_stock_brings_a_card_that_fits(
    stock: str, waste: str
) -> None:
    state = canfield(DEAD_COLUMNS, foundations=["3h"], stock=stock, waste=waste)
    assert outcome(state) is Outcome.PLAYING


def test_stuck_when_the_card_that_fits_stays_buried_under_draw_three() -> None:
    """Every cycle draws 6s-4d-8c then Qs: the 4d is never on top."""
    state = canfield(DEAD_COLUMNS, foundations=["3h"], stock="Qs 8c 4d 6s")
    assert outcome(state) is Outcome.STUCK


@pytest.mark.parametrize(
    ("columns", "reserve"),
    [
        (DEAD_COLUMNS, "7c 4d"),
        (DEAD_COLUMNS, "7c 3c"),
        (["5c", "Kh 5s", "9c", "9s", "Jc", "Js 4h"], ""),
    ],
)
def test_playing_while_the_reserve_or_a_column_has_a_move(columns: list[str], reserve: str) -> None:
    state = canfield(columns, foundations=["3h"], reserve=reserve)
    assert outcome(state) is Outcome.PLAYING


def test_stuck_ignores_moves_that_change_nothing() -> None:
    state = canfield(["5c", "5s", "9c", "9s", "Jc"], foundations=["3h"])
    assert play(state, "t1 t6") == state
    assert outcome(state) is Outcome.STUCK
    assert legal_moves(state) == []


# View and deal


def test_view_shows_only_the_reserve_top_and_counts_the_rest() -> None:
    state = canfield(
        ["7s 6h"],
        foundations=["", "4d"],
        reserve="9c Kd 5h",
        stock="2c 3c",
        waste="Ts",
    )
    shown = view(state)
    assert shown.variant == CANFIELD
    assert shown.tableau == (("7s", "6h"),) + ((),) * 5
    assert shown.foundations == (None, "4d") + (None,) * 6
    assert (shown.reserve, shown.reserve_hidden) == ("5h", 2)
    assert (shown.stock, shown.waste) == (2, ("Ts",))
    assert (shown.passes_left, shown.base_rank, shown.progress, shown.total) == (None, 3, 2, 104)


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_is_one_foundation_card_six_columns_a_reserve_of_40_and_a_stock_of_57(
    seed: bytes,
) -> None:
    state = new_game(CANFIELD, seed)
    assert state.variant == CANFIELD
    assert state.foundations[0] != EMPTY
    assert state.foundations[1:] == (EMPTY,) * 7
    assert state.base_rank == rank_of(state.foundations[0])
    assert [len(column) for column in state.tableau] == [1] * 6
    assert (len(state.reserve), len(state.stock), state.waste) == (40, 57, ())
    every_card = [state.foundations[0], *state.reserve, *state.stock]
    every_card += [c for column in state.tableau for c in column]
    assert Counter(every_card) == Counter(list(range(52)) * 2)
    shown = view(state)
    assert shown.tableau == tuple((format_card(column[0]),) for column in state.tableau)
    assert shown.foundations == (format_card(state.foundations[0]),) + (None,) * 7
    assert (shown.reserve, shown.reserve_hidden) == (format_card(state.reserve[-1]), 39)
    assert (shown.stock, shown.passes_left, shown.progress, shown.total) == (57, None, 1, 104)
    assert shown.base_rank == state.base_rank
