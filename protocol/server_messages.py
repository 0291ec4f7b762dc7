"""Messages a server sends: replies (echoing the request ``id``) and pushed frames."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from protocol import limits
from protocol._types import (
    AccountKey,
    AccountName,
    DayText,
    DurationMs,
    GameOutcome,
    Model,
    MoveId,
    MoveText,
    Progress,
    RequestId,
    RoomCode,
    Seat,
    Seq,
    Text,
    TimeMs,
    Token,
    VariantKey,
    Verdict,
    Version,
)
from protocol.board import BoardView
from protocol.challenges import ChallengeInfo
from protocol.errors import ErrorCode
from protocol.events import RaceOver, RoomEvent
from protocol.models import Limits, RoomSnapshot
from protocol.records import AccountInfo, HistoryEntry, LeaderboardRow, Profile


class Welcome(Model):
    """Reply to ``hello``: the agreed version, the server clock and its limits."""

    type: Literal["welcome"] = "welcome"
    id: RequestId
    version: int
    server_ms: TimeMs
    limits: Limits = Limits()


class Error(Model):
    """A request failed. ``id`` is ``None`` when the request id could not be read."""

    type: Literal["error"] = "error"
    id: RequestId | None
    code: Annotated[ErrorCode, Field(strict=False)]
    message: Text = ""
    """Human-readable detail; for ``move/illegal`` the engine's reason, for
    ``move/no-effect`` the count to give instead."""
    version: Version | None = None
    """For ``move/*`` errors: the player's current game version."""


class Joined(Model):
    """Reply to ``create_room`` / ``join_room``. Keep ``token`` to resume later.

    ``room`` includes every event up to ``seq``; events with a higher seq follow.
    """

    type: Literal["joined"] = "joined"
    id: RequestId
    code: RoomCode
    seat: Seat | None
    """``None`` for a spectator."""
    token: Token
    room: RoomSnapshot
    seq: Seq
    results: RaceOver | None = None
    """The race's results, as ``race_over`` gave them, when the room is ``finished``."""


class Ok(Model):
    """The request with this id was done; any effects arrive as events."""

    type: Literal["ok"] = "ok"
    id: RequestId


class MoveOk(Model):
    """The move was applied at ``at_ms`` (server clock) and the game is now ``version``."""

    type: Literal["move_ok"] = "move_ok"
    id: RequestId
    move_id: MoveId
    version: Version
    board: BoardView
    at_ms: TimeMs
    progress: Progress
    outcome: GameOutcome


class Snapshot(Model):
    """The whole room at ``seq`` plus the caller's own game, replacing what it knew."""

    type: Literal["snapshot"] = "snapshot"
    id: RequestId | None
    code: RoomCode
    seat: Seat | None
    room: RoomSnapshot
    board: BoardView | None
    """The caller's board while racing or finished; ``None`` in the lobby or for spectators."""
    version: Version | None
    seq: Seq
    results: RaceOver | None = None
    """The race's results, as ``race_over`` gave them, when the room is ``finished``."""


class Resumed(Model):
    """Reply to ``resume`` when the log still holds every missed event.

    The events after the client's ``last_seq`` up to ``seq`` follow at once.
    """

    type: Literal["resumed"] = "resumed"
    id: RequestId
    code: RoomCode
    seat: Seat | None
    board: BoardView | None
    version: Version | None
    seq: Seq


class EventFrame(Model):
    type: Literal["event"] = "event"
    seq: Annotated[int, Field(ge=1)]
    event: RoomEvent


class Pong(Model):
    type: Literal["pong"] = "pong"
    id: RequestId
    server_ms: TimeMs


class Hint(Model):
    """Reply to ``hint``: ``move`` is the next move of a winning line from the
    position at ``version``, or ``None`` when ``verdict`` is not ``won``."""

    type: Literal["hint"] = "hint"
    id: RequestId
    version: Version
    verdict: Verdict
    move: MoveText | None = None


class DeadEnd(Model):
    """Pushed to a racer only: from their position at ``version`` no sequence of
    moves can put another card home. Resigning is still the player's choice."""

    type: Literal["dead_end"] = "dead_end"
    version: Version
    at_ms: TimeMs


class AccountCreated(Model):
    """Reply to ``create_account``: keep ``key``, it is never shown again. The
    connection is signed in as the new account."""

    type: Literal["account_created"] = "account_created"
    id: RequestId
    account: AccountInfo
    key: AccountKey


class SignedIn(Model):
    """Reply to ``sign_in`` and ``rename_account``: the account as it is now."""

    type: Literal["signed_in"] = "signed_in"
    id: RequestId
    account: AccountInfo


class ProfileReply(Model):
    """Reply to ``get_profile``."""

    type: Literal["profile"] = "profile"
    id: RequestId
    profile: Profile


class HistoryReply(Model):
    """Reply to ``get_history``: one page, newest first. ``next_before`` asks for
    the next page; ``None`` when this is the last."""

    type: Literal["history"] = "history"
    id: RequestId
    name: AccountName
    races: Annotated[tuple[HistoryEntry, ...], Field(max_length=limits.MAX_PAGE)]
    next_before: Annotated[int, Field(ge=0)] | None = None


class LeaderboardReply(Model):
    """Reply to ``get_leaderboard``: rows ``offset`` + 1 onwards; ``total`` lines in all."""

    type: Literal["leaderboard"] = "leaderboard"
    id: RequestId
    variant: VariantKey
    deal_number: Annotated[int, Field(ge=1, le=limits.MAX_DEAL_NUMBER)] | None = None
    rows: Annotated[tuple[LeaderboardRow, ...], Field(max_length=limits.MAX_PAGE)]
    total: Annotated[int, Field(ge=0)]
    min_races: Annotated[int, Field(ge=0)] = 0
    """For a rating board: the rated races an account needs to appear on it."""


class ChallengeCreated(Model):
    """Reply to ``create_challenge``. ``key`` closes it early (``close_challenge``);
    keep it. It is ``None`` when another racer of the race made its challenge first:
    a race has one challenge, and this is it."""

    type: Literal["challenge_created"] = "challenge_created"
    id: RequestId
    challenge: ChallengeInfo
    key: Token | None = None


class ChallengeReply(Model):
    """Reply to ``get_challenge`` and ``close_challenge``."""

    type: Literal["challenge"] = "challenge"
    id: RequestId
    challenge: ChallengeInfo


class DailyBoard(Model):
    """Reply to ``get_daily``: the day's deal as a challenge (code
    ``daily:<game>:<day>``), and the signed-in account's daily streak."""

    type: Literal["daily_board"] = "daily_board"
    id: RequestId
    day: DayText
    challenge: ChallengeInfo
    streak: Annotated[int, Field(ge=0)] | None = None
    """UTC days in a row, up to today or yesterday, with a ranked daily run (any
    game); ``None`` for a guest."""


class GoingAway(Model):
    """The server is shutting down: reconnect (maybe to another server) and ``resume``."""

    type: Literal["going_away"] = "going_away"
    reconnect_in_ms: DurationMs = 0
    message: Text = ""


ServerMessage = Annotated[
    Welcome
    | Error
    | Joined
    | Ok
    | MoveOk
    | Snapshot
    | Resumed
    | EventFrame
    | Pong
    | Hint
    | DeadEnd
    | AccountCreated
    | SignedIn
    | ProfileReply
    | HistoryReply
    | LeaderboardReply
    | ChallengeCreated
    | ChallengeReply
    | DailyBoard
    | GoingAway,
    Field(discriminator="type"),
]

SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
