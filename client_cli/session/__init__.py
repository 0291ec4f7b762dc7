"""The session shared by every front end: one stay in a room, commands, saved seats, resume."""

from client_cli.session.resume import pick_seat
from client_cli.session.saved_seats import SavedSeat
from client_cli.session.seat_keeper import SeatKeeper
from client_cli.session.session import Entry, Session

__all__ = ["Entry", "SavedSeat", "SeatKeeper", "Session", "pick_seat"]
