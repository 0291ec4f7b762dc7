"""Keeping a session's resume record current as its room moves through a race.

A record is worth keeping only while a seat outlives a dropped connection:
in the countdown and the race (a lobby seat is freed when its connection
goes, and a race that is over has nothing to resume). So a record is written
when a countdown starts or the client gets back into a race, rewritten on
exit with the last event seq, and removed once the race is over, the seat is
left, or the token is refused.
"""

from __future__ import annotations

from pathlib import Path

from client_cli import statefile
from client_cli.tracker import Tracker

KEPT = ("countdown", "racing")
"""The phases in which a seat is kept for a player whose connection dropped."""


class Records:
    def __init__(self, directory: Path | None, server: str) -> None:
        self.directory, self.server = directory, server
        self.written: tuple[str, int | None, str] | None = None
        """The code, seat and phase last written."""

    def update(self, tracker: Tracker) -> None:
        """Write or remove the record after a message, when its room or phase changed."""
        if self.directory is None or tracker.code is None or tracker.room is None:
            return
        now = (tracker.code, tracker.seat, tracker.room.phase)
        if now == self.written:
            return
        if self.written is not None and self.written[:2] != now[:2]:
            statefile.forget(self.directory, self.server, *self.written[:2])
        self.written = now
        if tracker.room.phase in KEPT:
            self._save(tracker)
        else:
            self.forget(tracker)

    def close(self, tracker: Tracker) -> bool:
        """On exit: keep the record (with the last seq) only if the seat outlives us;
        whether a player's seat was kept."""
        if self.directory is None or tracker.code is None:
            return False
        phase = tracker.room.phase if tracker.room is not None else None
        if phase in KEPT:
            self._save(tracker)
            return tracker.seat is not None and tracker.token is not None
        self.forget(tracker)
        return False

    def forget(self, tracker: Tracker) -> None:
        if self.directory is not None and tracker.code is not None:
            statefile.forget(self.directory, self.server, tracker.code, tracker.seat)

    def _save(self, tracker: Tracker) -> None:
        assert self.directory is not None and tracker.code is not None
        if tracker.token is None:
            return
        saved = statefile.SavedSession(
            self.server, tracker.code, tracker.token, tracker.seat, tracker.last_seq
        )
        statefile.save(self.directory, saved)
