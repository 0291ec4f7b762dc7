"""Room event bodies: what happened in a room, in ``seq`` order.

Each body is stored once, encoded, in the room's event log and sent to every
member inside an ``event`` frame; a client that resumes gets the ones it missed.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from protocol import limits
from protocol._types import (
    BotLevel,
    Digest,
    DurationMs,
    FinishOutcome,
    Model,
    Name,
    PlayerOutcome,
    Progress,
    Rating,
    Seat,
    SeedHex,
    TimeMs,
    VariantKey,
    Version,
)
from protocol.board import BoardView
from protocol.models import DealVerdict, HostEnd, PlayerResult, RaceSummary, Settings
from protocol.records import RatingChange, SeatRating


class PlayerJoined(Model):
    type: Literal["player_joined"] = "player_joined"
    seat: Seat
    name: Name
    account: bool = False
    """As in `PlayerInfo`: signed in, a bot, the account's rating for the room's game."""
    bot: bool = False
    rating: Rating | None = None
    provisional: bool = False
    level: BotLevel | None = None
    """As in `PlayerInfo`: a bot's level, and whether the server's bot process plays it."""
    house: bool = False


class PlayerLeft(Model):
    """``away`` true: the seat is kept (race under way); false: the seat is free."""

    type: Literal["player_left"] = "player_left"
    seat: Seat
    away: bool


class PlayerBack(Model):
    """An away player has resumed."""

    type: Literal["player_back"] = "player_back"
    seat: Seat


class HostChanged(Model):
    """``None`` when no present player can host; the next one to join or return does."""

    type: Literal["host_changed"] = "host_changed"
    seat: Seat | None


class SpectatorCount(Model):
    type: Literal["spectator_count"] = "spectator_count"
    count: Annotated[int, Field(ge=0, le=limits.MAX_SPECTATORS)]


class SettingsChanged(Model):
    """New variant and settings; every player's ready flag is cleared."""

    type: Literal["settings"] = "settings"
    variant: VariantKey
    settings: Settings
    ratings: tuple[SeatRating, ...] = ()
    """Each seated account's rating for ``variant`` (accounts with none left out);
    replaces every player's ``rating``."""


class ReadyChanged(Model):
    type: Literal["ready"] = "ready"
    seat: Seat
    ready: bool


class Countdown(Model):
    """Everyone is ready. The deal is fixed now: ``seed_commit`` is sha256(seed) hex."""

    type: Literal["countdown"] = "countdown"
    race_no: Annotated[int, Field(ge=1)]
    starts_in_ms: DurationMs
    start_at_ms: TimeMs
    seed_commit: Digest


class RaceStarted(Model):
    """The race is on; ``board`` is the deal every player starts from."""

    type: Literal["race_started"] = "race_started"
    race_no: Annotated[int, Field(ge=1)]
    start_at_ms: TimeMs
    ends_at_ms: TimeMs
    board: BoardView


class ProgressMade(Model):
    """A player's counters after an accepted move."""

    type: Literal["progress"] = "progress"
    seat: Seat
    progress: Progress
    moves: Version
    outcome: PlayerOutcome


class GhostProgress(Model):
    """A challenge's recorded run, replayed by the server: its counters at the race
    time it reached them (``at_ms`` is this race's start plus that race time). Never
    its moves or board. ``outcome`` is ``playing`` until its last step."""

    type: Literal["ghost_progress"] = "ghost_progress"
    race_no: Annotated[int, Field(ge=1)]
    ghost: Annotated[int, Field(ge=0, lt=limits.MAX_GHOSTS)]
    name: Name
    guest: bool
    progress: Progress
    moves: Version
    outcome: PlayerOutcome
    at_ms: TimeMs


class PlayerFinished(Model):
    type: Literal["player_finished"] = "player_finished"
    seat: Seat
    outcome: FinishOutcome
    at_ms: TimeMs
    elapsed_ms: DurationMs
    ended_by: Seat | None = None
    """The host's seat when the host ended the race early and so this player's race
    (outcome ``timeout``); ``None`` otherwise. Optional on the wire."""


class IdleWarning(Model):
    """A player still racing has made no move for a while since someone finished.

    Unless they move first, they finish with ``timeout`` at ``timeout_at_ms``.
    """

    type: Literal["idle_warning"] = "idle_warning"
    seat: Seat
    timeout_at_ms: TimeMs


class BoardShown(Model):
    """A player's board for spectators, sent ``spectator_delay_s`` after the move."""

    type: Literal["board"] = "board"
    seat: Seat
    board: BoardView
    version: Version
    at_ms: TimeMs
    """When the move that led to this board arrived."""


class RaceOver(Model):
    """Final ranking with every move log; the seed is revealed so anyone can replay."""

    type: Literal["race_over"] = "race_over"
    race_no: Annotated[int, Field(ge=1)]
    start_at_ms: TimeMs
    ended_at_ms: TimeMs
    seed: SeedHex
    seed_commit: Digest
    ranking: Annotated[tuple[PlayerResult, ...], Field(max_length=limits.MAX_PLAYERS)]
    ended_by_host: HostEnd | None = None
    """Set when the host ended the race early; ``None`` when every player's race ended
    otherwise. Optional on the wire."""


class DealAnalysed(Model):
    """The solver's verdict on the deal just raced, some time after ``race_over``."""

    type: Literal["deal_analysed"] = "deal_analysed"
    verdict: DealVerdict


class RaceRated(Model):
    """A rated race's ratings are settled, once, some time after ``race_over``."""

    type: Literal["race_rated"] = "race_rated"
    race_no: Annotated[int, Field(ge=1)]
    changes: Annotated[tuple[RatingChange, ...], Field(max_length=limits.MAX_PLAYERS)]


class Rematch(Model):
    """Back to the lobby for race ``race_no``; nobody is ready."""

    type: Literal["rematch"] = "rematch"
    race_no: Annotated[int, Field(ge=2)]
    last_race: RaceSummary | None = None
    """The race just over in brief, as the room's snapshots carry it from now on.
    Optional on the wire."""


RoomEvent = Annotated[
    PlayerJoined
    | PlayerLeft
    | PlayerBack
    | HostChanged
    | SpectatorCount
    | SettingsChanged
    | ReadyChanged
    | Countdown
    | RaceStarted
    | ProgressMade
    | GhostProgress
    | PlayerFinished
    | IdleWarning
    | BoardShown
    | RaceOver
    | DealAnalysed
    | RaceRated
    | Rematch,
    Field(discriminator="type"),
]
