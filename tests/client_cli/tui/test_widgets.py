from __future__ import annotations

from client_cli.tui.widgets import LegalMoves
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
