"""Who sits in a seat and how a rated race moved ratings, in a few words.

A seat is an account's (shown by its rating for the room's game, ``provisional``
for its first few rated races, ``unrated`` before its first), a guest's, or a
bot's. A rating's change is signed: ``+14``, ``-9``, ``+0``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from protocol import RatingChange, RoomSnapshot

GUEST = "guest"
BOT = "bot"
UNRATED = "unrated"
PROVISIONAL = "provisional"


class Seated(Protocol):
    """What a seat says of its player (`PlayerInfo`, `PlayerJoined`)."""

    @property
    def account(self) -> bool: ...
    @property
    def bot(self) -> bool: ...
    @property
    def rating(self) -> int | None: ...
    @property
    def provisional(self) -> bool: ...


def identity(player: Seated) -> str:
    """``1523``, ``1480 provisional``, ``unrated``, ``guest`` or ``bot``."""
    if player.bot:
        return BOT
    if not player.account:
        return GUEST
    if player.rating is None:
        return UNRATED
    return f"{player.rating} {PROVISIONAL}" if player.provisional else str(player.rating)


def identity_width(players: Iterable[Seated]) -> int:
    """The width of the longest `identity` among ``players``."""
    return max((len(identity(player)) for player in players), default=0)


def signed(change: RatingChange) -> str:
    """The change alone: ``+14``, ``-9``, ``+0``."""
    return f"{change.after - change.before:+d}"


def change_text(change: RatingChange) -> str:
    """``+14 (1537)``, ``-9 (1471, provisional)``."""
    now = f"{change.after}, {PROVISIONAL}" if change.provisional else str(change.after)
    return f"{signed(change)} ({now})"


def rated_news(race_no: int, changes: Iterable[RatingChange]) -> str:
    """The news of ``race_rated``: every account's change, in one sentence."""
    said = ", ".join(f"{change.name} {change_text(change)}" for change in changes)
    return f"Ratings after race {race_no}: {said or 'no change'}."


def rating_change(room: RoomSnapshot, seat: int) -> RatingChange | None:
    """How the room's last rated race moved the rating of the account in ``seat``."""
    return next((change for change in room.rating_changes or () if change.seat == seat), None)


def rating_due(room: RoomSnapshot) -> bool:
    """The race just over will be rated, and its changes have not come yet: the room is
    rated and two or more accounts raced."""
    if room.phase != "finished" or not room.settings.rated or room.rating_changes is not None:
        return False
    return sum(player.account and not player.bot for player in room.players) >= 2
