"""What the store hands back and what it refuses with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class StoreError(Exception):
    """Base of the store's refusals; the stored data is unchanged when one is raised."""


class NotFound(StoreError):
    """The room or the player's game record does not exist (never made, or expired)."""


class VersionConflict(StoreError):
    """Someone else wrote first; reload and try again from `current`."""

    def __init__(self, current: int) -> None:
        super().__init__(f"version is now {current}")
        self.current = current


class AlreadyFinished(StoreError):
    """The player's race is over (won, stuck, resigned, timed out); no more moves."""


class StoreUnavailable(StoreError):
    """Redis cannot be reached or cannot write now (down, loading, read-only, out of memory).

    A write refused this way may or may not have been applied: a request that
    failed so is safe to send again (moves carry their id for that).
    """


@dataclass(frozen=True)
class RoomRecord:
    """The room as the server encoded it, its write version and its last event seq."""

    room: bytes
    version: int
    seq: int


@dataclass(frozen=True)
class PlayerRecord:
    """One player's game in the current race."""

    state: bytes
    version: int
    progress: int
    progress_at_ms: int
    outcome: str
    finished_at_ms: int | None

    @property
    def moves(self) -> int:
        """Moves applied so far: every committed move bumps the version by one."""
        return self.version


class MoveCommit(NamedTuple):
    """A validated move to store (`Store.commit_move`): where, from which version, what."""

    code: str
    seat: int
    expected_version: int
    """The player's game version the move was played on."""
    state: bytes
    """The game after the move (`engine.to_bytes`)."""
    move_text: str
    move_id: str
    now_ms: int
    progress: int
    outcome: str
    event: bytes
    """The room's ``progress`` event, packed."""


@dataclass(frozen=True)
class CommitResult:
    """A move that was stored just now: its event seq and the player's new version."""

    seq: int
    version: int


@dataclass(frozen=True)
class Duplicate:
    """A move id seen before: the result stored then; nothing was applied this time."""

    seq: int
    version: int


class LoggedMove(NamedTuple):
    """One entry of a player's move log."""

    text: str
    ms: int
    move_id: str


class TokenBinding(NamedTuple):
    """Where a player token belongs; `seat` is None for a spectator."""

    code: str
    seat: int | None
