from __future__ import annotations

import engine
from client_cli.room.visible import visible_moves
from client_cli.tui.keys import (
    PILE_KEYS,
    Pick,
    drop,
    home_move,
    pick_pile,
    pick_top,
    pile_of_key,
    run_length,
    stock_move,
)
from protocol import BoardView
from tests.client_cli._samples import board


def test_every_pile_of_every_game_has_its_own_key_and_no_command_letter_is_one() -> None:
    assert len(set(PILE_KEYS)) == len(PILE_KEYS) >= engine.find_variant("little-billie").piles
    assert not set(PILE_KEYS) & set("adfhqrwx? ")


def test_keys_name_only_piles_the_board_has() -> None:
    forty = board("little-forty")
    assert pile_of_key("1", forty) == 0
    assert pile_of_key("0", forty) == 9
    assert pile_of_key("b", forty) is None
    assert pile_of_key("v", board("little-billie")) == 25


def test_pressing_a_pile_again_picks_one_more_card_of_the_run_then_lets_go() -> None:
    forty = board("little-forty")  # t4 ends K♣ Q♦: a run of two
    assert run_length(forty, 3) == 2
    first = pick_pile(None, 3, forty)
    assert first == Pick("t", 3)
    second = pick_pile(first, 3, forty)
    assert second == Pick("t", 3, 2)
    assert pick_pile(second, 3, forty) is None


def test_a_pick_dropped_on_a_pile_or_home_is_the_notation_move() -> None:
    assert drop(Pick("t", 2), "t", 6).format() == "t3 t7"
    assert drop(Pick("t", 2, 2), "t", 6).format() == "t3:2 t7"
    assert drop(Pick("w"), "f").format() == "w f"
    assert drop(Pick("r"), "t", 0).format() == "r t1"


def test_the_stock_key_finds_the_draw_deal_or_redeal_of_each_game() -> None:
    assert stock_move(board("little-forty")) == engine.Move("draw")
    assert stock_move(board("little-milligan")) == engine.Move("deal")
    assert stock_move(board("little-billie")) is None  # a fan top still fits home
    assert stock_move(billie_with_nothing_to_send_home()) == engine.Move("redeal")


def billie_with_nothing_to_send_home() -> BoardView:
    moves: tuple[str, ...] = ()
    while (move := home_move(board("little-billie", moves=moves))) is not None:
        moves += (move.format(),)
    return board("little-billie", moves=moves)


def test_home_moves_are_legal_and_follow_the_pick() -> None:
    forty = board("little-forty")  # t9 ends with A♥
    move = home_move(forty)
    assert move is not None
    assert move in visible_moves(forty)
    assert (move.src, move.src_index, move.dst) == ("t", 8, "f")
    assert home_move(forty, Pick("t", 0)) is None


def test_the_waste_or_reserve_top_is_picked_or_the_game_says_it_has_none() -> None:
    canfield = board("double-canfield-40")  # a reserve, and a waste once drawn
    assert pick_top(canfield, "r") == Pick("r")
    assert pick_top(canfield, "w") == "The waste is empty."
    assert pick_top(board("little-milligan"), "w") == "Little Milligan has no waste."
    assert pick_top(board("little-forty"), "r") == "Little Forty has no reserve."
