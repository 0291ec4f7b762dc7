"""Who sits down in a seat: a signed-in player as their account, anyone else as a guest.

A signed-in connection's player takes the account's name and id, and the
account's rating for the room's game beside the seat. A bot (``bot`` set on the
request) is never seated as an account, even from a signed-in connection. A
guest or bot may not take a name that an account holds (compared by name key, so
neither ``ADA`` nor a Cyrillic-A ``Ada`` passes for ``Ada``). Joins, account
creations and sign-ins share the per-address attempt limit (`count_join_attempt`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from protocol import BotLevel, ErrorCode
from server.accounts.names import name_digest
from server.conn.session import Session
from server.lifecycle.rating import Skill, is_provisional
from server.lifecycle.rating import shown as shown_skill
from server.lifecycle.room import RoomError
from server.services import Services
from server.store import StoredRating

__all__ = ["Sitter", "count_join_attempt", "seat_ratings", "shown", "sitter"]

ShownRating = tuple[int, bool]
"""A rating as a seat shows it: the integer and whether it is still provisional."""


@dataclass(frozen=True)
class Sitter:
    """Who a join seats: the name shown, the account ('' for a guest), its ratings."""

    name: str
    account: str = ""
    bot: bool = False
    level: BotLevel | None = None
    ratings: Mapping[str, StoredRating] = field(default_factory=dict)

    def seat(self, variant: str, provisional_races: int) -> dict[str, Any]:
        """The keyword arguments of `rooms.create` and `rooms.join` for a room of `variant`."""
        rating, provisional = _shown_of(self.ratings.get(variant), provisional_races)
        return {
            "account": self.account,
            "bot": self.bot,
            "level": self.level,
            "rating": rating,
            "provisional": provisional,
        }


def shown(rating: StoredRating, provisional_races: int) -> ShownRating:
    """The integer shown for a rating, and whether it has too few races to trust yet."""
    skill = Skill(rating.mu, rating.sigma, rating.races)
    return shown_skill(skill), is_provisional(skill, provisional_races)


async def sitter(session: Session, name: str, bot: bool, level: BotLevel | None = None) -> Sitter:
    """Who `session` seats when it asks to sit as `name`; `RoomError` when it may not."""
    store = session.services.store
    if session.account and not bot:
        account = await store.load_account(session.account)
        if account is None:
            session.account = ""
            raise RoomError(ErrorCode.ACCOUNT_NOT_SIGNED_IN, "the account is gone; sign in again")
        ratings = await store.account_ratings(account.account_id)
        return Sitter(account.name, account.account_id, ratings=ratings)
    holder = await store.account_by_name(name_digest(name))
    if holder is not None:
        text = f"the account {holder.name} has that name; sign in or pick another name"
        raise RoomError(ErrorCode.ACCOUNT_NAME_TAKEN, text)
    return Sitter(name, bot=bot, level=level if bot else None)


async def seat_ratings(
    services: Services, accounts: Iterable[str], variant: str
) -> dict[str, ShownRating]:
    """Each account's shown rating for game `variant`; accounts with none left out."""
    ids = sorted(set(accounts))
    if not ids:
        return {}
    found = await services.store.ratings_of(ids)
    provisional_races = services.config.provisional_races
    return {
        account: shown(ratings[variant], provisional_races)
        for account, ratings in found.items()
        if variant in ratings
    }


def count_join_attempt(session: Session) -> None:
    """Spend one of the client address's join attempts (a join as player or spectator,
    an account creation, a sign-in); `RoomError` when none is left."""
    wait_s = session.services.limits.join_wait(session.address)
    if wait_s is not None:
        text = f"too many join attempts from your address; try again in {wait_s} s"
        raise RoomError(ErrorCode.PROTO_RATE_LIMITED, text)


def _shown_of(rating: StoredRating | None, provisional_races: int) -> tuple[int | None, bool]:
    return (None, False) if rating is None else shown(rating, provisional_races)
