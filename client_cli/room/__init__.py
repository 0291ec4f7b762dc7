"""The pure copy of a room, kept current from server messages: room, board, moves, checks."""

from client_cli.room.tracker import Tracker
from client_cli.room.verify import check_race
from client_cli.room.visible import visible_moves
from protocol.changes import apply_event

__all__ = ["Tracker", "apply_event", "check_race", "visible_moves"]
