import engine
from bench._full_driver import ack_head
from protocol import encode_move_ok


def test_an_acknowledgement_is_known_by_its_first_bytes_and_only_the_awaited_one() -> None:
    board = engine.view(engine.new_game("little-forty", b"deal:1"))
    ack = encode_move_ok(7, "m3", 4, board, 1_700_000_000_000)

    assert ack.startswith(ack_head(7, "m3", 4))
    assert not ack.startswith(ack_head(8, "m3", 4))
    assert not ack.startswith(ack_head(7, "m4", 4))
    assert not ack.startswith(ack_head(7, "m3", 5))
