"""Messages a client sends. Each carries a request ``id`` that the reply echoes."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from protocol import limits
from protocol._types import (
    AccountKey,
    AccountName,
    BotLevel,
    ChallengeCode,
    ClientName,
    DayText,
    Model,
    MoveId,
    MoveText,
    Name,
    PageSize,
    RequestId,
    Role,
    RoomCode,
    Seat,
    Seq,
    Token,
    VariantKey,
    Version,
)
from protocol.models import Settings


class Hello(Model):
    """First message on every connection; the server answers ``welcome``."""

    type: Literal["hello"] = "hello"
    id: RequestId
    version: Annotated[int, Field(ge=0)]
    client: ClientName = ""
    """Free text naming the client program, for logs."""


class CreateRoom(Model):
    """Open a room and take seat 0 as its host."""

    type: Literal["create_room"] = "create_room"
    id: RequestId
    variant: VariantKey
    name: Name
    settings: Settings = Settings()
    bot: bool = False
    """The seat is played by a program: never rated, marked as a bot."""
    level: BotLevel | None = None
    """A bot's level, shown in the lobby; ignored unless ``bot``."""


class JoinRoom(Model):
    type: Literal["join_room"] = "join_room"
    id: RequestId
    code: RoomCode
    name: Name
    """Ignored for a signed-in player, who takes their account's name."""
    role: Role = "player"
    bot: bool = False
    """The seat is played by a program: never rated, marked as a bot."""
    level: BotLevel | None = None
    """A bot's level, shown in the lobby; ignored unless ``bot``."""


class Resume(Model):
    """Come back with the token from ``joined``; ``last_seq`` is the last event seen."""

    type: Literal["resume"] = "resume"
    id: RequestId
    token: Token
    last_seq: Seq


class Leave(Model):
    type: Literal["leave"] = "leave"
    id: RequestId


class SetSettings(Model):
    """Host only, in the lobby. Replaces variant and settings; clears every ready flag."""

    type: Literal["set_settings"] = "set_settings"
    id: RequestId
    variant: VariantKey
    settings: Settings


class Ready(Model):
    type: Literal["ready"] = "ready"
    id: RequestId
    ready: bool


class MakeMove(Model):
    """One move in engine notation. ``move_id`` makes a resent move harmless."""

    type: Literal["move"] = "move"
    id: RequestId
    move: MoveText
    move_id: MoveId
    expected_version: Version


class Resign(Model):
    type: Literal["resign"] = "resign"
    id: RequestId


class EndRace(Model):
    """Host only, during a race: everyone still racing finishes with ``timeout`` now."""

    type: Literal["end_race"] = "end_race"
    id: RequestId


class RequestRematch(Model):
    """Host only, once the race is over."""

    type: Literal["rematch"] = "rematch"
    id: RequestId


class Sync(Model):
    """Ask for a fresh ``snapshot`` (e.g. after ``move/stale-version``)."""

    type: Literal["sync"] = "sync"
    id: RequestId


class AskHint(Model):
    """Practice rooms only, while racing: the next move of a winning line from the
    caller's position, if the server finds one within its hint budget."""

    type: Literal["hint"] = "hint"
    id: RequestId


class CreateAccount(Model):
    """Make an account named ``name``; the reply carries its key, once. The
    connection is then signed in as it."""

    type: Literal["create_account"] = "create_account"
    id: RequestId
    name: AccountName


class SignIn(Model):
    """Sign this connection in; the rooms it creates or joins from now on seat the
    account (under the account's name). A seat taken before keeps what it was."""

    type: Literal["sign_in"] = "sign_in"
    id: RequestId
    key: AccountKey


class RenameAccount(Model):
    """Signed in: give the account a new name (the same rules as a new account's)."""

    type: Literal["rename_account"] = "rename_account"
    id: RequestId
    name: AccountName


class DeleteAccount(Model):
    """Signed in: delete the account, its ratings, history and records. ``name``
    must be the account's name, as a check that this is the account meant."""

    type: Literal["delete_account"] = "delete_account"
    id: RequestId
    name: AccountName


class GetProfile(Model):
    """Anyone: an account's ratings, recent races and best times."""

    type: Literal["get_profile"] = "get_profile"
    id: RequestId
    name: AccountName


class GetHistory(Model):
    """Anyone: an account's races, newest first, ``limit`` at a time. ``before``
    is the ``next_before`` of the previous page (``None``: from the newest)."""

    type: Literal["get_history"] = "get_history"
    id: RequestId
    name: AccountName
    variant: VariantKey | None = None
    """Only races of this game."""
    before: Annotated[int, Field(ge=0)] | None = None
    limit: PageSize = 20


class GetLeaderboard(Model):
    """Anyone: a game's accounts by rating (at least the server's minimum of rated
    races), or with ``deal_number`` the fastest wins of that public deal."""

    type: Literal["get_leaderboard"] = "get_leaderboard"
    id: RequestId
    variant: VariantKey
    deal_number: Annotated[int, Field(ge=1, le=limits.MAX_DEAL_NUMBER)] | None = None
    offset: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    limit: PageSize = 20


class CreateChallenge(Model):
    """A racer of the room's finished race turns it into a challenge, open ``days``
    days (docs/challenges.md)."""

    type: Literal["create_challenge"] = "create_challenge"
    id: RequestId
    days: Annotated[int, Field(ge=1, le=limits.MAX_CHALLENGE_DAYS)] = limits.CHALLENGE_DAYS
    room: RoomCode | None = None
    """From outside the room: its code, with ``token``, the racer's token from
    ``joined``; nil: the room this connection is seated in."""
    token: Token | None = None


class GetChallenge(Model):
    """Anyone: a challenge and its standings."""

    type: Literal["get_challenge"] = "get_challenge"
    id: RequestId
    code: ChallengeCode


class JoinChallenge(Model):
    """Race a challenge: a new room (this connection seated as host, as with
    ``create_room``) with the challenge's game and deal and its best runs as ghosts.
    Friends join it by its room code and start together. Replies ``joined``."""

    type: Literal["join_challenge"] = "join_challenge"
    id: RequestId
    code: ChallengeCode
    name: Name
    ghosts: Annotated[tuple[Name, ...], Field(max_length=limits.MAX_GHOSTS)] = ()
    """The runs to race, by racer name (each name's best run), in this order;
    empty: the challenge's best runs."""


class RaceDaily(Model):
    """Race today's deal of ``variant`` (UTC day) as a challenge, against the day's best
    runs so far as ghosts: as ``join_challenge`` of ``daily:<variant>:<day>``."""

    type: Literal["daily"] = "daily"
    id: RequestId
    variant: VariantKey
    name: Name


class GetDaily(Model):
    """Anyone: a day's deal of ``variant`` and its standings (``day`` ``None``: today,
    UTC). A past day's seed is shown."""

    type: Literal["get_daily"] = "get_daily"
    id: RequestId
    variant: VariantKey
    day: DayText | None = None


class CloseChallenge(Model):
    """The creator closes a challenge early: its seed and every run's moves are shown.
    ``key`` is the one ``challenge_created`` gave."""

    type: Literal["close_challenge"] = "close_challenge"
    id: RequestId
    code: ChallengeCode
    key: Token


class AddBot(Model):
    """Host only, in the lobby: seat a house bot, which the server's own bot
    process plays (docs/bots.md). It shows as a bot everywhere and is never rated."""

    type: Literal["add_bot"] = "add_bot"
    id: RequestId
    level: BotLevel = "good"
    name: Name | None = None
    """``None``: the server names it (e.g. "Good bot 2")."""


class RemoveBot(Model):
    """Host only, in the lobby: free a house bot's seat."""

    type: Literal["remove_bot"] = "remove_bot"
    id: RequestId
    seat: Seat


class Ping(Model):
    type: Literal["ping"] = "ping"
    id: RequestId


ClientMessage = Annotated[
    Hello
    | CreateRoom
    | JoinRoom
    | Resume
    | Leave
    | SetSettings
    | Ready
    | MakeMove
    | Resign
    | EndRace
    | RequestRematch
    | Sync
    | AskHint
    | CreateAccount
    | SignIn
    | RenameAccount
    | DeleteAccount
    | GetProfile
    | GetHistory
    | GetLeaderboard
    | CreateChallenge
    | GetChallenge
    | JoinChallenge
    | CloseChallenge
    | RaceDaily
    | GetDaily
    | AddBot
    | RemoveBot
    | Ping,
    Field(discriminator="type"),
]

CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
