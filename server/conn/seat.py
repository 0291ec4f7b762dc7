"""A connection's place in a room: the room, the seat, the token, the kept game.

The socket (`server.conn.session.Session`) and the place it holds are two
things: a session reads and writes frames for its whole life, while its place
is taken by ``join``/``resume`` and given up by ``leave`` or a closed socket.
The move path works on the place alone: the player's game and its version
kept between moves (so the common move costs one store round trip), and the
racer's dead-end watch, which a committed move re-arms.
"""

from __future__ import annotations

import engine
from protocol import ErrorCode
from server.conn.dead_end_watch import DeadEndWatch, Racer
from server.lifecycle.room import RoomError
from server.services import Services

__all__ = ["Seat"]


class Seat:
    __slots__ = (
        "__weakref__",
        "code",
        "dead_end",
        "game",
        "race_no",
        "seat",
        "token_hash",
        "version",
    )

    def __init__(self, racer: Racer, services: Services) -> None:
        self.code: str | None = None
        self.seat: int | None = None
        """The seat's number; None for a spectator."""
        self.token_hash: str | None = None
        self.game: engine.GameState | None = None
        self.version = -1
        self.race_no = 0
        self.dead_end = DeadEndWatch(racer, self, services)
        """Tells this racer when no card can go home any more."""

    def bind(self, code: str, seat: int | None, token_hash: str) -> None:
        self.code, self.seat, self.token_hash = code, seat, token_hash

    def clear(self) -> None:
        """The place is given up: no room, no seat, no kept game, no watch."""
        self.code = self.seat = self.token_hash = None
        self.forget_game()
        self.dead_end.stop()

    def player(self, refusal: ErrorCode, verb: str) -> tuple[str, int]:
        """The room and seat of a player; outsiders and spectators (`refusal`) are refused."""
        if self.code is None:
            raise RoomError(ErrorCode.ROOM_NOT_MEMBER, "join or create a room first")
        if self.seat is None:
            raise RoomError(refusal, f"spectators cannot {verb}")
        return self.code, self.seat

    def game_for(self, race_no: int) -> tuple[engine.GameState, int] | None:
        """The player's game and version kept from the last move of race `race_no`."""
        if self.game is None or self.race_no != race_no:
            return None
        return self.game, self.version

    def keep_game(self, race_no: int, game: engine.GameState, version: int) -> None:
        self.game, self.version, self.race_no = game, version, race_no

    def forget_game(self) -> None:
        """The kept game may be out of date: the next move reads it from the store."""
        self.game, self.version = None, -1

    def race_started(self, progress: int, start_at_ms: int) -> None:
        """A race in the room is on: a racer's dead-end watch starts from its start."""
        if self.seat is not None:
            self.dead_end.race_started(progress, start_at_ms)
