"""What outlives a room: accounts, ratings, race history and leaderboards.

These are the values the account requests answer with (`protocol.client_messages`)
and that the web pages read as JSON (docs/protocol.md, "Accounts and records").
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from protocol import limits
from protocol._types import (
    AccountName,
    Count,
    DurationMs,
    FinishOutcome,
    Model,
    Progress,
    Rating,
    RoomCode,
    Seat,
    TimeMs,
    VariantKey,
)


class GameRating(Model):
    """An account's rating in one game (OpenSkill Plackett-Luce, docs/accounts.md)."""

    variant: VariantKey
    rating: Rating
    """The integer shown: 1500 + 20 x (mu - 3 sigma)."""
    provisional: bool
    """Fewer rated races than the server's ``provisional_races`` so far."""
    races: Count
    """Rated races of this game."""
    mu: float
    sigma: Annotated[float, Field(gt=0)]


class AccountInfo(Model):
    """An account as its owner sees it (no key: the server keeps only a hash)."""

    name: AccountName
    created_ms: TimeMs
    ratings: tuple[GameRating, ...] = ()
    """One per game the account has a rated race in."""


class HistoryEntry(Model):
    """One race in an account's history, as it stood when the race was over."""

    at_ms: TimeMs
    """When the race started (server clock)."""
    variant: VariantKey
    code: RoomCode
    race_no: Annotated[int, Field(ge=1)]
    deal_number: Annotated[int, Field(ge=1, le=limits.MAX_DEAL_NUMBER)] | None
    """The public deal raced; ``None`` for a secret deal."""
    rated: bool
    practice: bool
    place: Annotated[int, Field(ge=1, le=limits.MAX_PLAYERS)]
    racers: Annotated[int, Field(ge=1, le=limits.MAX_PLAYERS)]
    outcome: FinishOutcome
    progress: Progress
    """Cards home."""
    elapsed_ms: DurationMs
    moves: Count
    rating_before: Rating | None = None
    """Only for a rated race."""
    rating_after: Rating | None = None


class BestTime(Model):
    """An account's fastest win of one public deal (practice rooms do not count)."""

    variant: VariantKey
    deal_number: Annotated[int, Field(ge=1, le=limits.MAX_DEAL_NUMBER)]
    elapsed_ms: DurationMs
    at_ms: TimeMs
    """When that race started."""


class Profile(Model):
    """An account as anyone may see it: ratings, recent races, best times."""

    name: AccountName
    created_ms: TimeMs
    ratings: tuple[GameRating, ...] = ()
    recent: Annotated[tuple[HistoryEntry, ...], Field(max_length=limits.MAX_PAGE)] = ()
    """Newest first."""
    best: Annotated[tuple[BestTime, ...], Field(max_length=limits.MAX_HISTORY)] = ()
    """Fastest first within each game."""


class LeaderboardRow(Model):
    """One line of a leaderboard: by rating (``rating`` set) or by a public deal's
    fastest win (``elapsed_ms`` set)."""

    place: Annotated[int, Field(ge=1)]
    name: AccountName
    rating: Rating | None = None
    provisional: bool = False
    races: Count = 0
    """Rated races of the board's game."""
    elapsed_ms: DurationMs | None = None
    at_ms: TimeMs | None = None
    """When the fastest win's race started."""


class RatingChange(Model):
    """How one account's rating moved in a rated race (``race_rated``)."""

    seat: Seat
    name: AccountName
    before: Rating
    after: Rating
    provisional: bool
    """Still provisional after this race."""


class SeatRating(Model):
    """An account's rating for the room's game, beside its seat."""

    seat: Seat
    rating: Rating
    provisional: bool
