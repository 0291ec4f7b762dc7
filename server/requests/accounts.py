"""Account requests: create, sign in, rename, delete; profiles, history, leaderboards.

An account has no password: its key (192 random bits, shown once) is what signs a
connection in. The server keeps only the key's sha256, so signing in looks the
digest up in the key index: a wrong key and an unknown key are one and the same
miss, answered alike (``account/bad-key``). Creating an account and signing in
spend the address's join attempts, so keys cannot be tried faster than rooms.

`profile`, `history` and `leaderboard` are plain functions of the services, for
the handlers here and the web pages' JSON alike; a name is looked up by its name
key, so ``/players/ada`` finds ``Ada``.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgpack

from protocol import (
    AccountCreated,
    AccountInfo,
    BestTime,
    CreateAccount,
    DeleteAccount,
    ErrorCode,
    GameRating,
    GetHistory,
    GetLeaderboard,
    GetProfile,
    HistoryEntry,
    HistoryReply,
    LeaderboardReply,
    LeaderboardRow,
    Ok,
    Profile,
    ProfileReply,
    RenameAccount,
    SignedIn,
    SignIn,
    limits,
)
from server.accounts.codec import unpack_history
from server.accounts.names import BadName, account_name, name_digest
from server.conn.session import Session
from server.lifecycle.room import RoomError
from server.requests.seating import count_join_attempt, shown
from server.services import Services
from server.store import AccountRecord, StoredRating

__all__ = ["History", "Leaderboard", "history", "leaderboard", "profile"]

PROFILE_RACES = 10
"""Races a profile shows (the newest); `history` pages through the rest."""
_VARIANT_AT = tuple(HistoryEntry.model_fields).index("variant")
"""Where a packed history entry keeps its game (server.accounts.codec packs in field order)."""


@dataclass(frozen=True)
class History:
    """One page of an account's races, newest first; `next_before` asks for the next."""

    name: str
    races: tuple[HistoryEntry, ...]
    next_before: int | None


@dataclass(frozen=True)
class Leaderboard:
    """A page of a game's rating board, or of a public deal's fastest wins."""

    variant: str
    deal_number: int | None
    rows: tuple[LeaderboardRow, ...]
    total: int
    min_races: int
    """For a rating board: the rated races an account needs to be on it (0 for a deal)."""


async def create_account(session: Session, message: CreateAccount) -> AccountCreated:
    count_join_attempt(session)
    name = _checked_name(message.name)
    services = session.services
    account_id, key = secrets.token_hex(8), secrets.token_urlsafe(24)
    now_ms = services.clock.now_ms()
    made = await services.store.create_account(
        account_id, name, name_digest(name), key_digest(key), now_ms
    )
    if not made:
        raise _name_taken(name)
    session.account = account_id
    info = AccountInfo(name=name, created_ms=now_ms)
    return AccountCreated(id=message.id, account=info, key=key)


async def sign_in(session: Session, message: SignIn) -> SignedIn:
    count_join_attempt(session)
    account = await session.services.store.account_by_key(key_digest(message.key))
    if account is None:
        raise RoomError(ErrorCode.ACCOUNT_BAD_KEY, "no account has this key")
    session.account = account.account_id
    return SignedIn(id=message.id, account=await _info(session.services, account))


async def rename_account(session: Session, message: RenameAccount) -> SignedIn:
    account = await _signed_in(session)
    name = _checked_name(message.name)
    store = session.services.store
    if not await store.rename_account(account.account_id, name, name_digest(name)):
        raise _name_taken(name)
    renamed = await _signed_in(session)
    return SignedIn(id=message.id, account=await _info(session.services, renamed))


async def delete_account(session: Session, message: DeleteAccount) -> Ok:
    account = await _signed_in(session, deleting=True)
    if name_digest(message.name) != account.name_digest:
        text = f"this connection is signed in as {account.name}; name it to delete it"
        raise RoomError(ErrorCode.ACCOUNT_CONFIRM, text)
    await session.services.store.delete_account(account.account_id)
    session.account = ""
    return Ok(id=message.id)


async def get_profile(session: Session, message: GetProfile) -> ProfileReply:
    return ProfileReply(id=message.id, profile=await profile(session.services, message.name))


async def get_history(session: Session, message: GetHistory) -> HistoryReply:
    page = await history(
        session.services, message.name, message.variant, message.before, message.limit
    )
    return HistoryReply(
        id=message.id, name=page.name, races=page.races, next_before=page.next_before
    )


async def get_leaderboard(session: Session, message: GetLeaderboard) -> LeaderboardReply:
    board = await leaderboard(
        session.services, message.variant, message.deal_number, message.offset, message.limit
    )
    return LeaderboardReply(
        id=message.id,
        variant=board.variant,
        deal_number=board.deal_number,
        rows=board.rows,
        total=board.total,
        min_races=board.min_races,
    )


async def profile(services: Services, name: str) -> Profile:
    """The account named `name` as anyone may see it; `RoomError` ``account/not-found``."""
    account = await _named(services, name)
    store = services.store
    ratings = await store.account_ratings(account.account_id)
    recent = await store.history_page(account.account_id, 0, PROFILE_RACES)
    best = await store.best_times(account.account_id)
    return Profile(
        name=account.name,
        created_ms=account.created_ms,
        ratings=_game_ratings(services, ratings),
        recent=tuple(unpack_history(entry) for entry in recent.entries),
        best=_best_times(best),
    )


async def history(
    services: Services,
    name: str,
    variant: str | None = None,
    before: int | None = None,
    limit: int = 20,
) -> History:
    """A page of the races of the account named `name` (only of game `variant`, if
    given), from list index `before` (None: the newest); `RoomError` when no such account."""
    account = await _named(services, name)
    keep = None if variant is None else _of_game(variant)
    page = await services.store.history_page(account.account_id, before or 0, limit, keep)
    races = tuple(unpack_history(entry) for entry in page.entries)
    return History(account.name, races, page.next_before)


async def leaderboard(
    services: Services, variant: str, deal_number: int | None, offset: int, limit: int
) -> Leaderboard:
    """Rows `offset` + 1 to `offset` + `limit` of game `variant`'s rating board, or with
    `deal_number` of that public deal's fastest wins."""
    store, config = services.store, services.config
    if deal_number is not None:
        wins, total = await store.deal_board(variant, deal_number, offset, limit)
        rows = tuple(
            LeaderboardRow(place=w.place, name=w.name, elapsed_ms=w.elapsed_ms, at_ms=w.at_ms)
            for w in wins
        )
        return Leaderboard(variant, deal_number, rows, total, 0)
    lines, total = await store.rating_board(variant, offset, limit)
    rated = []
    for line in lines:
        rating, provisional = shown(line.rating, config.provisional_races)
        row = LeaderboardRow(
            place=line.place,
            name=line.name,
            rating=rating,
            provisional=provisional,
            races=line.rating.races,
        )
        rated.append(row)
    return Leaderboard(variant, None, tuple(rated), total, config.leaderboard_min_races)


def key_digest(key: str) -> str:
    """What the server keeps of an account key: its sha256 hex."""
    return hashlib.sha256(key.encode()).hexdigest()


async def _signed_in(session: Session, *, deleting: bool = False) -> AccountRecord:
    if not session.account:
        raise RoomError(ErrorCode.ACCOUNT_NOT_SIGNED_IN, "sign in first")
    account = await session.services.store.load_account(session.account, deleting=deleting)
    if account is None:
        session.account = ""
        raise RoomError(ErrorCode.ACCOUNT_NOT_SIGNED_IN, "the account is gone; sign in again")
    return account


async def _named(services: Services, name: str) -> AccountRecord:
    account = await services.store.account_by_name(name_digest(name))
    if account is None:
        raise RoomError(ErrorCode.ACCOUNT_NOT_FOUND, f"no account is named {name}")
    return account


async def _info(services: Services, account: AccountRecord) -> AccountInfo:
    ratings = await services.store.account_ratings(account.account_id)
    return AccountInfo(
        name=account.name,
        created_ms=account.created_ms,
        ratings=_game_ratings(services, ratings),
    )


def _game_ratings(services: Services, ratings: dict[str, StoredRating]) -> tuple[GameRating, ...]:
    provisional_races = services.config.provisional_races
    shown_ratings = []
    for variant, stored in sorted(ratings.items()):
        rating, provisional = shown(stored, provisional_races)
        game = GameRating(
            variant=variant,
            rating=rating,
            provisional=provisional,
            races=stored.races,
            mu=stored.mu,
            sigma=stored.sigma,
        )
        shown_ratings.append(game)
    return tuple(shown_ratings)


def _best_times(best: dict[str, tuple[int, int]]) -> tuple[BestTime, ...]:
    """Fastest first within each game; games in name order."""
    times = []
    for deal, (elapsed_ms, at_ms) in best.items():
        variant, number = deal.rsplit(":", 1)
        times.append(
            BestTime(variant=variant, deal_number=int(number), elapsed_ms=elapsed_ms, at_ms=at_ms)
        )
    times.sort(key=lambda time: (time.variant, time.elapsed_ms, time.deal_number))
    return tuple(times[: limits.MAX_HISTORY])


def _of_game(variant: str) -> Callable[[bytes], bool]:
    """Whether a packed history entry is of game `variant`, read without building it."""

    def keep(entry: bytes) -> bool:
        fields: list[Any] = msgpack.unpackb(entry)
        return len(fields) > _VARIANT_AT and fields[_VARIANT_AT] == variant

    return keep


def _checked_name(text: str) -> str:
    try:
        return account_name(text)
    except BadName as error:
        raise RoomError(ErrorCode.ACCOUNT_BAD_NAME, str(error)) from error


def _name_taken(name: str) -> RoomError:
    text = f"an account already has the name {name} or one that looks like it; pick another"
    return RoomError(ErrorCode.ACCOUNT_NAME_TAKEN, text)


HANDLERS: dict[type[Any], Callable[[Session, Any], Awaitable[Any]]] = {
    CreateAccount: create_account,
    SignIn: sign_in,
    RenameAccount: rename_account,
    DeleteAccount: delete_account,
    GetProfile: get_profile,
    GetHistory: get_history,
    GetLeaderboard: get_leaderboard,
}
"""The account requests, merged into `server.requests.lobby.HANDLERS`."""
