"""Messages a client sends. Each carries a request ``id`` that the reply echoes."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from protocol._types import (
    ClientName,
    Model,
    MoveId,
    MoveText,
    Name,
    RequestId,
    Role,
    RoomCode,
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


class JoinRoom(Model):
    type: Literal["join_room"] = "join_room"
    id: RequestId
    code: RoomCode
    name: Name
    role: Role = "player"


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
    | Ping,
    Field(discriminator="type"),
]

CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
