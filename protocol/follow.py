"""What one client knows of its room and its own game, kept current from server messages.

Theory of operation: the server sends the whole room once (``joined``,
``snapshot``) and then numbered events; `Follower.follow` takes every
message in arrival order and updates the room, the player's board and
version, the last event seq and the last race's results. It does no I/O and
reads no clock, so every client (the terminal client's tracker, the bots)
follows a room the same way and tests can drive it with plain messages.

A ``snapshot`` replaces everything, but events may arrive between asking for
one and getting it. Those events are kept (`recent`) while a snapshot is
awaited and the ones newer than the snapshot are applied on top of it.

The server's dead-end notice (``dead_end``) holds only for the position it
was found for: any move the player makes afterwards leaves it behind
(`dead_end_holds`).
"""

from __future__ import annotations

from typing import Protocol

from protocol.board import BoardView
from protocol.changes import apply_event
from protocol.events import BoardShown, RaceOver, RaceStarted, Rematch
from protocol.models import RoomSnapshot
from protocol.server_messages import (
    DeadEnd,
    EventFrame,
    Joined,
    MoveOk,
    Resumed,
    ServerMessage,
    Snapshot,
)


class Seen(Protocol):
    """A player's side of a followed room, as the dead-end check reads it."""

    @property
    def room(self) -> RoomSnapshot | None: ...
    @property
    def board(self) -> BoardView | None: ...
    @property
    def version(self) -> int | None: ...
    @property
    def dead_end(self) -> tuple[int, int] | None: ...


class Follower:
    def __init__(self) -> None:
        self.code: str | None = None
        self.token: str | None = None
        self.seat: int | None = None
        """``None`` for a spectator."""
        self.room: RoomSnapshot | None = None
        self.board: BoardView | None = None
        self.version: int | None = None
        """The number of moves applied to the player's game: the next expected version."""
        self.last_seq = 0
        self.recent: list[EventFrame] | None = []
        """Events seen while a snapshot is awaited (always, until a room is known)."""
        self.results: RaceOver | None = None
        """The last race's results, once it is over."""
        self.dead_end: tuple[int, int] | None = None
        """The race and game version the server found no way home from."""

    def expect_snapshot(self) -> None:
        """A snapshot was asked for: keep events until it comes."""
        if self.recent is None:
            self.recent = []

    def follow(self, message: ServerMessage) -> None:
        """Take one message into account."""
        if isinstance(message, EventFrame):
            self.take_event(message)
        elif isinstance(message, MoveOk):
            self.board, self.version = message.board, message.version
        elif isinstance(message, Joined):
            self.take_joined(message)
            self._take_results(message.results)
        elif isinstance(message, Snapshot):
            for frame in self.take_snapshot(message):
                self.take_event(frame)
            self._take_results(message.results)
        elif isinstance(message, Resumed):
            self.take_resumed(message)
        elif isinstance(message, DeadEnd):
            self.take_dead_end(message)

    def take_joined(self, message: Joined) -> None:
        self.code, self.token, self.seat = message.code, message.token, message.seat
        self.room, self.last_seq, self.recent = message.room, message.seq, None
        self.board = self.version = None

    def take_snapshot(self, message: Snapshot) -> list[EventFrame]:
        """Take the snapshot; the events kept meanwhile that are newer, to apply next."""
        self.code, self.seat, self.room = message.code, message.seat, message.room
        self.board, self.version, self.last_seq = message.board, message.version, message.seq
        recent, self.recent = self.recent or [], None
        return [frame for frame in recent if frame.seq > message.seq]

    def take_resumed(self, message: Resumed) -> None:
        self.code, self.seat = message.code, message.seat
        if message.board is not None:
            self.board, self.version = message.board, message.version

    def take_event(self, frame: EventFrame) -> RoomSnapshot | None:
        """Apply one event frame; the room before it, or ``None`` when it changed
        no room (a board frame, an event already seen, or no room known yet)."""
        event = frame.event
        if isinstance(event, BoardShown) or frame.seq <= self.last_seq:
            return None
        self.last_seq = frame.seq
        if self.recent is not None:
            self.recent.append(frame)
        if self.room is None:
            return None
        before = self.room
        self.room = apply_event(before, event)
        if isinstance(event, RaceStarted) and self.seat is not None:
            self.board, self.version = event.board, 0
        elif isinstance(event, RaceOver):
            self.results = event
        elif isinstance(event, Rematch):
            self.board = self.version = None
        return before

    def take_dead_end(self, message: DeadEnd) -> bool:
        """Note the notice if it is about the player's current position; whether it is."""
        if self.room is None or not _playing(self) or message.version != self.version:
            return False
        self.dead_end = (self.room.race_no, message.version)
        return True

    def _take_results(self, over: RaceOver | None) -> None:
        if over is not None:
            self.results = over


def dead_end_holds(seen: Seen) -> bool:
    """Whether the player is still at the position found to be a dead end."""
    if seen.room is None or not _playing(seen):
        return False
    return seen.dead_end == (seen.room.race_no, seen.version)


def _playing(seen: Seen) -> bool:
    return seen.board is not None and seen.board.outcome == "playing"
