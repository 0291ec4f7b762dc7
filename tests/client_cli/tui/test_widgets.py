from __future__ import annotations

from client_cli.room.visible import visible_moves
from client_cli.tui.widgets import LegalMoves, short_texts
from protocol import BoardView
from tests.client_cli._samples import board


async def test_completion_offers_a_legal_move_of_the_current_board() -> None:
    shown: list[BoardView | None] = [board("little-forty")]
    moves = LegalMoves(lambda: shown[0])
    assert await moves.get_suggestion("t9") == "t9:1 f1"
    assert await moves.get_suggestion("dr") == "draw"
    assert await moves.get_suggestion("t1 f") is None
    assert await moves.get_suggestion("") is None
    shown[0] = None
    assert await moves.get_suggestion("dr") is None


async def test_completion_follows_the_notation_without_a_count() -> None:
    """``t3 t7`` is the notation the help and the placeholder teach: typing it
    completes too, to a move only one run can make."""
    moves = LegalMoves(lambda: board("little-forty"))
    assert await moves.get_suggestion("t3 ") == "t3 t7"
    assert await moves.get_suggestion("t9 t1") == "t9 t1"
    assert await moves.get_suggestion("t9 t") == "t9 t1"
    assert await moves.get_suggestion("t9 f") == "t9 f1"
    assert await moves.get_suggestion("t3:") == "t3:1 t7"


async def test_no_completion_without_a_count_where_it_could_mean_two_moves() -> None:
    piles = (("5h", "Kc", "Qd"), (), *board("little-forty").tableau[2:])
    shown = board("little-forty").model_copy(update={"tableau": piles})
    moves = LegalMoves(lambda: shown)
    assert await moves.get_suggestion("t1:") == "t1:1 t2"
    assert await moves.get_suggestion("t1 t") is None


def test_each_move_is_listed_once_as_a_player_would_type_it() -> None:
    piles = (("5h", "Kc", "Qd"), (), *board("little-forty").tableau[2:])
    shown = board("little-forty").model_copy(update={"tableau": piles})
    texts = short_texts(visible_moves(shown))
    assert "t1:1 t2" in texts and "t1:2 t2" in texts and "t1 t2" not in texts
    assert "t9 f1" in texts and "t9:1 f1" not in texts
    assert len(texts) == len(set(texts)) == len(visible_moves(shown))
