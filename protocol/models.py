"""Values that several messages and events carry: settings, snapshots, results."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field, model_validator

from engine import OPTION_KEYS
from protocol import limits
from protocol._types import (
    BotLevel,
    Count,
    Digest,
    DurationMs,
    FinishOutcome,
    Model,
    MoveId,
    MoveText,
    Name,
    Phase,
    PlayerOutcome,
    Progress,
    RankReason,
    Rating,
    RoomCode,
    Seat,
    SeedHex,
    TimeMs,
    VariantKey,
    Verdict,
    Version,
)
from protocol.records import RatingChange


def _known_option(name: str) -> str:
    if name not in OPTION_KEYS:
        raise ValueError(f"unknown rule option {name!r}; known: {', '.join(OPTION_KEYS[1:])}")
    return name


class Settings(Model):
    """What the host chooses in the lobby. Every field has a sensible default."""

    max_players: Annotated[int, Field(ge=1, le=limits.MAX_PLAYERS)] = 4
    time_limit_s: Annotated[int, Field(ge=60, le=3600)] = 900
    spectator_delay_s: Annotated[int, Field(ge=0, le=600)] = 0
    """Spectators see each board this long after the player does."""
    countdown_s: Annotated[int, Field(ge=1, le=30)] = 3
    deal_number: Annotated[int, Field(ge=1, le=limits.MAX_DEAL_NUMBER)] | None = None
    """A public deal for practice; ``None`` deals from a secret random seed."""
    idle_limit_s: Annotated[int, Field(ge=limits.MIN_IDLE_LIMIT_S, le=3600)] | None = None
    """Once someone has finished, a player with no move for this long times out
    (warned ``IDLE_WARNING_S`` before); ``None``: no idle limit."""
    winnable_only: bool = False
    """Deal only from the host's pool of deals the solver has proven winnable
    (each used once); cannot be combined with ``deal_number``."""
    practice: bool = False
    """A practice room: players may ask for ``hint``s. Never a ranked race."""
    rated: bool = False
    """A race with two or more accounts racing changes their ratings
    (docs/accounts.md). Not in practice rooms nor on a public deal, which anyone
    may have played before."""
    rule_option: Annotated[
        str, Field(max_length=limits.MAX_VARIANT_CHARS), AfterValidator(_known_option)
    ] = ""
    """A rule option of the room's game (``engine.VARIANT_OPTIONS``; the server
    refuses one the game lacks): ``""`` plays it as docs/rules.md rules it;
    ``"unlimited-redeals"``, Little Billie only, redeals until blocked. The
    deal is the same. Not with winnable-only or rated, which the standard
    rules decide. Optional on the wire."""

    @model_validator(mode="after")
    def _one_deal_source(self) -> Settings:
        if self.winnable_only and self.deal_number is not None:
            raise ValueError("winnable_only deals from the pool; leave deal_number out")
        if self.rated and self.practice:
            raise ValueError("a practice room is never rated; leave one of them out")
        if self.rated and self.deal_number is not None:
            raise ValueError("a rated race deals a secret deal; leave deal_number out")
        if self.rule_option and (self.winnable_only or self.rated):
            raise ValueError("winnable-only and rated rooms play the standard rules")
        return self


class Limits(Model):
    """The limits a server enforces, announced in ``welcome``."""

    max_frame_bytes: int = limits.MAX_CLIENT_FRAME
    max_name_chars: int = limits.MAX_NAME_CHARS
    max_move_chars: int = limits.MAX_MOVE_CHARS
    max_move_id_chars: int = limits.MAX_MOVE_ID_CHARS
    max_moves: int = limits.MAX_MOVES
    rate_per_s: int = limits.RATE_PER_S
    rate_burst: int = limits.RATE_BURST


class PlayerInfo(Model):
    """One seat as everyone sees it."""

    seat: Seat
    name: Name
    ready: bool
    away: bool
    """Left or lost the connection during a race; the seat is kept."""
    outcome: PlayerOutcome
    progress: Progress
    moves: Annotated[int, Field(ge=0, le=limits.MAX_MOVES)]
    finished_at_ms: TimeMs | None
    idle_timeout_at_ms: TimeMs | None = None
    """Warned for idling (``idle_warning``) with no move since: when the race ends for
    this player with ``timeout`` unless they move first. ``None`` when no warning stands.
    Optional on the wire (older servers leave it out)."""
    account: bool = False
    """Signed in: ``name`` is the account's; otherwise a guest (or a bot)."""
    bot: bool = False
    """Played by a program; never rated."""
    rating: Rating | None = None
    """The account's rating for the room's game; ``None`` for guests, bots and an
    account with no rated race of this game."""
    provisional: bool = False
    level: BotLevel | None = None
    """A bot's level, when it said one (a house bot always does)."""
    house: bool = False
    """A house bot: seated by the host, played by the server's bot process."""


class DealVerdict(Model):
    """The solver's verdict on a race's deal, from its first position, found
    after the race within the server's analysis budget."""

    race_no: Annotated[int, Field(ge=1)]
    verdict: Verdict
    line_moves: Annotated[int, Field(ge=0, le=limits.MAX_MOVES)] | None = None
    """The length of the winning line found, for ``won``; otherwise ``None``."""
    budget_s: Annotated[float, Field(ge=0)]
    """The search budget in CPU seconds (``undecided`` means it ran out)."""


class HostEnd(Model):
    """The host ended the race early (``end_race``): who, and when in race time.

    The players it stopped are those whose race ended with ``timeout`` at exactly
    ``elapsed_ms``."""

    seat: Seat
    """The host's seat."""
    elapsed_ms: DurationMs
    """When, counted from the start of the race."""


class SummaryLine(Model):
    """One player's line in a race's summary: how their race ended, without the moves."""

    rank: Annotated[int, Field(ge=1, le=limits.MAX_PLAYERS)]
    seat: Seat
    name: Name
    outcome: FinishOutcome
    progress: Progress
    """Cards on the foundations."""
    elapsed_ms: DurationMs
    """Race time: when the player's race ended, counted from the start."""


class RaceSummary(Model):
    """A finished race in brief (a few hundred bytes): its ``race_over`` without the
    move logs, the seed and the instants, kept for the lobby of the room's next race."""

    race_no: Annotated[int, Field(ge=1)]
    variant: VariantKey
    """The game raced (the lobby's may have changed since)."""
    ranking: Annotated[tuple[SummaryLine, ...], Field(max_length=limits.MAX_PLAYERS)]
    """Best first, as the race's ``race_over`` ranked them."""
    ended_by_host: HostEnd | None = None


class GhostInfo(Model):
    """A ghost of a challenge room as its last ``ghost_progress`` showed it: progress
    only, never its moves or board."""

    ghost: Annotated[int, Field(ge=0, lt=limits.MAX_GHOSTS)]
    name: Name
    guest: bool
    progress: Progress
    moves: Version
    outcome: PlayerOutcome
    at_ms: TimeMs


class RoomSnapshot(Model):
    """The whole room at one ``seq``. The seed appears only once the race is over."""

    code: RoomCode
    variant: VariantKey
    settings: Settings
    phase: Phase
    race_no: Annotated[int, Field(ge=1)]
    host: Seat | None
    players: Annotated[tuple[PlayerInfo, ...], Field(max_length=limits.MAX_PLAYERS)]
    spectators: Annotated[int, Field(ge=0, le=limits.MAX_SPECTATORS)]
    start_at_ms: TimeMs | None
    seed_commit: Digest | None
    seed: SeedHex | None
    verdict: DealVerdict | None = None
    """The solver's verdict on the last race's deal, once it is known."""
    last_race: RaceSummary | None = None
    """The room's previous race (``race_no - 1``) in brief, from the rematch on;
    ``None`` in the first race. Optional on the wire."""
    rating_changes: tuple[RatingChange, ...] | None = None
    """Once a finished rated race has been rated: each account's change
    (``race_rated``). Optional on the wire."""
    ghosts: Annotated[tuple[GhostInfo, ...], Field(max_length=limits.MAX_GHOSTS)] = ()
    """In a challenge room's race: each ghost shown so far, as last shown, by ghost
    number; what a client that joins or resyncs mid-race would otherwise learn only
    at each ghost's next step. Optional on the wire."""


class LogEntry(Model):
    """One accepted move: its text, the server time it arrived, the client's move id."""

    move: MoveText
    at_ms: TimeMs
    move_id: MoveId


class PlayerResult(Model):
    """One line of the final ranking, with the player's whole move log and what
    decided its place."""

    rank: Annotated[int, Field(ge=1, le=limits.MAX_PLAYERS)]
    seat: Seat
    name: Name
    outcome: FinishOutcome
    progress: Progress
    progress_at_ms: TimeMs
    """When the player first reached ``progress`` cards on the foundations."""
    moves: Count
    finished_at_ms: TimeMs
    """When the race ended for this player (the deadline for ``timeout``)."""
    elapsed_ms: DurationMs
    """Race time: ``finished_at_ms`` minus the start instant."""
    log: Annotated[tuple[LogEntry, ...], Field(max_length=limits.MAX_MOVES)]
    decided_by: RankReason | None = None
    """What puts this player below the one ranked just above; ``None`` for rank 1.
    The values compared are this line's ``outcome``, ``finished_at_ms``, ``progress``,
    ``progress_at_ms`` and ``seat``. Optional on the wire (older servers leave it out)."""
