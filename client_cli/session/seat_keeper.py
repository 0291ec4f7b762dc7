"""Keeping a session's saved seat current as its room moves through a race.

A seat is worth saving only while it outlives a dropped connection: in the
countdown and the race (a lobby seat is freed when its connection goes, and
a race that is over has nothing to resume). So a seat is saved when a
countdown starts or the client gets back into a race, saved again on exit
with the last event seq, and forgotten once the race is over, the seat is
left, or the token is refused. Besides the token it holds what tells one
saved seat from another when ``resume`` asks which (the game, the player's name,
when it was saved and when the race's time runs out) and the tokens of the
bots this client seated (`bots`), to bring them back too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from client_cli.room.tracker import Tracker
from client_cli.session import saved_seats
from client_cli.words.render import player_name


@dataclass(frozen=True, slots=True)
class Team:
    """The bots a client runs for its host: their tokens, Bot 1 first, and speed."""

    tokens: tuple[str, ...] = ()
    speed: float = 1.0


KEPT = ("countdown", "racing")
"""The phases in which a seat is kept for a player whose connection dropped."""


class SeatKeeper:
    """Saves, updates and forgets one session's seat in a directory of saved seats."""

    def __init__(self, directory: Path | None, server: str) -> None:
        self.directory, self.server = directory, server
        self.written: tuple[str, int | None, str] | None = None
        """The code, seat and phase last written."""
        self.bots: Callable[[], Team] = Team
        """The bots to bring back with the seat (a `BotTeam` sets this)."""

    def update(self, tracker: Tracker, server_ms: int) -> None:
        """Save or forget the seat after a message, when its room or phase changed."""
        if self.directory is None or tracker.code is None or tracker.room is None:
            return
        now = (tracker.code, tracker.seat, tracker.room.phase)
        if now == self.written:
            return
        if self.written is not None and self.written[:2] != now[:2]:
            saved_seats.forget(self.directory, self.server, *self.written[:2])
        self.written = now
        if tracker.room.phase in KEPT:
            self._save(tracker, server_ms)
        else:
            self.forget(tracker)

    def close(self, tracker: Tracker, server_ms: int) -> bool:
        """On exit: keep the saved seat (with the last seq) only if the seat outlives us;
        whether a player's seat was kept."""
        if self.directory is None or tracker.code is None:
            return False
        phase = tracker.room.phase if tracker.room is not None else None
        if phase in KEPT:
            self._save(tracker, server_ms)
            return tracker.seat is not None and tracker.token is not None
        self.forget(tracker)
        return False

    def forget(self, tracker: Tracker) -> None:
        if self.directory is not None and tracker.code is not None:
            saved_seats.forget(self.directory, self.server, tracker.code, tracker.seat)

    def _save(self, tracker: Tracker, server_ms: int) -> None:
        """``server_ms``: the server's clock now, to say when the race ends by ours."""
        room = tracker.room
        assert self.directory is not None and tracker.code is not None and room is not None
        if tracker.token is None:
            return
        now = time.time()
        ends_at = None
        if room.start_at_ms is not None:
            ends_at_ms = room.start_at_ms + room.settings.time_limit_s * 1000
            ends_at = now + (ends_at_ms - server_ms) / 1000
        team = self.bots()
        saved = saved_seats.SavedSeat(
            self.server,
            tracker.code,
            tracker.token,
            tracker.seat,
            tracker.last_seq,
            variant=room.variant,
            name="" if tracker.seat is None else player_name(room, tracker.seat),
            practice=room.settings.practice,
            bots=team.tokens,
            bot_speed=team.speed,
            saved_at=now,
            ends_at=ends_at,
        )
        saved_seats.save(self.directory, saved)
