"""What the store hands back and what it refuses with, plus where a room's keys live."""

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


class PlayerFinished(StoreError):
    """The player's race is over (won, stuck, resigned, timed out); no more moves."""


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


@dataclass(frozen=True)
class RoomKeys:
    """Key names of one room (prefix P, code C); the {C} hash tag keeps them on one slot.

    P{C}:room        hash: body (the room), version, seq (last event seq)
    P{C}:events      stream, entry id <seq>-0, field e (the event); length capped (~)
    P{C}:seats       set of the seats that hold a game record
    P{C}:player:<s>  hash: state, version, progress, progress_at_ms, outcome,
                     finished_at_ms
    P{C}:log:<s>     list of moves, each msgpack [text, ms, move id]
    P{C}:ids:<s>     hash: move id -> "<seq> <version>"
    P{C}:tokens      set of the token hashes bound to the room
    P{C}:watchers    set of the ids of the processes that watch the room
    P{C}:feed:<id>   pub/sub channel of watching process <id>: "<seq>\n<event>"

    Outside any room: Ptoken:<hash> holds "C <seat>" ("C -" for a spectator), and
    Prooms is the set of room codes, pruned of expired rooms when counted.
    The Lua scripts build the per-seat names the same way (server._lua `seat_keys`).
    """

    prefix: str
    code: str

    @property
    def base(self) -> str:
        return f"{self.prefix}{{{self.code}}}:"

    @property
    def room(self) -> str:
        return self.base + "room"

    @property
    def events(self) -> str:
        return self.base + "events"

    @property
    def seats(self) -> str:
        return self.base + "seats"

    @property
    def tokens(self) -> str:
        return self.base + "tokens"

    @property
    def watchers(self) -> str:
        return self.base + "watchers"

    def channel(self, process: str) -> str:
        return f"{self.base}feed:{process}"

    def player(self, seat: int) -> str:
        return f"{self.base}player:{seat}"

    def log(self, seat: int) -> str:
        return f"{self.base}log:{seat}"

    def ids(self, seat: int) -> str:
        return f"{self.base}ids:{seat}"
