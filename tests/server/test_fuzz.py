"""Garbage in, an error out: malformed frames never silence or break the server.

Each frame is checked against what the protocol's own decoder says of it: a
frame it refuses must get exactly that error code, naming the request id when
the id could be read; a frame it accepts must get one reply with its id. Every
frame is followed by a ping, whose pong proves the connection still works and
that nothing was left unanswered before it. Meanwhile two players race in
another room on the same server and move after every frame; their games must
advance exactly as the engine says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from protocol import (
    BoardView,
    ErrorCode,
    MakeMove,
    MoveOk,
    ProtocolError,
    ServerMessage,
    Settings,
    decode_client,
)
from protocol.limits import MAX_REQUEST_ID
from server.store import Store
from tests.server._client import Client, start_race
from tests.server.conftest import ServerFactory

VARIANT, DEAL = "double-canfield-40", 11
"""An endless stock: the racers can always draw or recycle."""
FIRST_RAW_ID = 1_000_000
"""Request ids in frames sent raw stay clear of the small ids of the client's pings."""
FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass
class Racer:
    client: Client
    state: engine.GameState
    version: int = 0

    async def step(self) -> None:
        """Play the next stock move and check the server's board against the engine's."""
        move = next(m for m in engine.legal_moves(self.state) if m.action != "move")
        reply = await self.client.call(
            MakeMove, move=move.format(), move_id=f"r{self.version}", expected_version=self.version
        )
        assert isinstance(reply, MoveOk), reply
        self.state, self.version = engine.apply(self.state, move), self.version + 1
        assert reply.version == self.version
        assert reply.board == BoardView.from_engine(engine.view(self.state))


@dataclass
class Arena:
    """A fuzzed connection, and a race in another room on the same server."""

    fuzzer: Client
    racers: list[Racer]
    turn: int = 0

    async def check(self, frame: bytes) -> None:
        replies = [m for m in await self.fuzzer.answers_to(frame) if m.type != "event"]
        _check_replies(frame, replies)
        racer = self.racers[self.turn % len(self.racers)]
        self.turn += 1
        await racer.step()


def _check_replies(frame: bytes, replies: Sequence[ServerMessage]) -> None:
    """Exactly one reply: the decoder's error for a bad frame, else one naming the request."""
    assert len(replies) == 1, replies
    (reply,) = replies
    try:
        message = decode_client(frame)
    except ProtocolError as refused:
        assert reply.type == "error", reply
        assert (reply.code, reply.id) == (refused.code, refused.request_id)
        return
    assert getattr(reply, "id", None) == message.id, reply


@pytest.fixture
async def arena(store: Store, start_server: ServerFactory) -> Arena:
    server = await start_server(store, rate_per_s=100_000, rate_burst=100_000)
    url = f"ws://127.0.0.1:{server.port}"
    clients = [await Client.open(url, server.clock) for _ in range(2)]
    await start_race(clients, VARIANT, Settings(countdown_s=1, deal_number=DEAL))
    start = engine.new_game(VARIANT, b"deal:%d" % DEAL)
    return Arena(await Client.open(url, server.clock), [Racer(client, start) for client in clients])


# Strategies

VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats()
    | st.text(max_size=40)
    | st.binary(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Anything msgpack can carry."""

TEMPLATES: dict[str, dict[str, Any]] = {
    "hello": {"version": 1, "client": "fuzz"},
    "create_room": {"variant": "little-forty", "name": "Fuzz", "settings": {"max_players": 2}},
    "join_room": {"code": "ABCDEF", "name": "Fuzz", "role": "spectator"},
    "resume": {"token": "t" * 24, "last_seq": 0},
    "leave": {},
    "set_settings": {"variant": "little-billie", "settings": {"countdown_s": 5}},
    "ready": {"ready": True},
    "move": {"move": "draw", "move_id": "m1", "expected_version": 0},
    "resign": {},
    "rematch": {},
    "sync": {},
    "ping": {},
}
"""A well-formed request of every client message type, without its id."""


def _clear_of_pings(fields: dict[Any, Any]) -> dict[Any, Any]:
    request_id = fields.get("id")
    if type(request_id) is int and 0 <= request_id < FIRST_RAW_ID:
        return {**fields, "id": request_id + FIRST_RAW_ID}
    return fields


@st.composite
def mangled_requests(draw: st.DrawFn) -> bytes:
    """A request of some type with fields dropped, added or replaced by anything."""
    kind = draw(st.sampled_from(sorted(TEMPLATES)))
    request_id = draw(st.integers(min_value=FIRST_RAW_ID, max_value=MAX_REQUEST_ID))
    fields: dict[Any, Any] = {"type": kind, "id": request_id, **TEMPLATES[kind]}
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        action = draw(st.sampled_from(["drop", "add", "replace"]))
        if action == "add" or not fields:
            fields[draw(st.text(max_size=8))] = draw(VALUES)
        elif action == "drop":
            del fields[draw(st.sampled_from(sorted(fields)))]
        else:
            fields[draw(st.sampled_from(sorted(fields)))] = draw(VALUES)
    packed: bytes = msgpack.packb(_clear_of_pings(fields))
    return packed


@st.composite
def broken_msgpack(draw: st.DrawFn) -> bytes:
    """A well-formed request's bytes, cut short or with bytes overwritten."""
    kind = draw(st.sampled_from(sorted(TEMPLATES)))
    data = bytearray(msgpack.packb({"type": kind, "id": FIRST_RAW_ID, **TEMPLATES[kind]}))
    if draw(st.booleans()):
        return bytes(data[: draw(st.integers(min_value=0, max_value=len(data) - 1))])
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        data[draw(st.integers(min_value=0, max_value=len(data) - 1))] = draw(
            st.integers(min_value=0, max_value=255)
        )
    return bytes(data)


ANY_MAP = st.dictionaries(st.text(max_size=10), VALUES, max_size=6).map(_clear_of_pings)


# Tests


@FUZZ
@given(frame=mangled_requests())
async def test_mangled_requests_get_the_decoders_error(arena: Arena, frame: bytes) -> None:
    await arena.check(frame)


@FUZZ
@given(frame=broken_msgpack() | st.binary(max_size=300))
async def test_broken_msgpack_and_random_bytes_get_an_error(arena: Arena, frame: bytes) -> None:
    await arena.check(frame)


@FUZZ
@given(fields=ANY_MAP)
async def test_maps_of_anything_get_an_error(arena: Arena, fields: dict[str, Any]) -> None:
    await arena.check(msgpack.packb(fields))


HAND_PICKED: list[tuple[Any, ErrorCode, int | None]] = [
    # wrong types
    ({"type": "ping", "id": "1000001"}, ErrorCode.PROTO_INVALID, None),
    ({"type": "ping", "id": 1.0}, ErrorCode.PROTO_INVALID, None),
    ({"type": "ping", "id": True}, ErrorCode.PROTO_INVALID, None),
    ({"type": "ready", "id": 1_000_002, "ready": 1}, ErrorCode.PROTO_INVALID, 1_000_002),
    (
        {"type": "move", "id": 1_000_003, "move": "draw", "move_id": "m", "expected_version": "0"},
        ErrorCode.PROTO_INVALID,
        1_000_003,
    ),
    ({"type": "hello", "id": 1_000_004, "version": b"\x01"}, ErrorCode.PROTO_INVALID, 1_000_004),
    ({"type": 5, "id": 1_000_005}, ErrorCode.PROTO_UNKNOWN_TYPE, 1_000_005),
    ({"type": "teleport", "id": 1_000_006}, ErrorCode.PROTO_UNKNOWN_TYPE, 1_000_006),
    # missing fields
    ({"id": 1_000_007}, ErrorCode.PROTO_UNKNOWN_TYPE, 1_000_007),
    ({"type": "ping"}, ErrorCode.PROTO_INVALID, None),
    ({"type": "join_room", "id": 1_000_008, "code": "ABCDEF"}, ErrorCode.PROTO_INVALID, 1_000_008),
    ({"type": "move", "id": 1_000_009, "move": "draw"}, ErrorCode.PROTO_INVALID, 1_000_009),
    # extra fields
    ({"type": "ping", "id": 1_000_010, "extra": 1}, ErrorCode.PROTO_INVALID, 1_000_010),
    (
        {
            "type": "create_room",
            "id": 1_000_011,
            "variant": "little-forty",
            "name": "A",
            "settings": {"max_players": 2, "turbo": True},
        },
        ErrorCode.PROTO_INVALID,
        1_000_011,
    ),
    # huge and out-of-range ints
    ({"type": "ping", "id": 2**64 - 1}, ErrorCode.PROTO_INVALID, None),
    ({"type": "ping", "id": -(2**63)}, ErrorCode.PROTO_INVALID, None),
    ({"type": "ping", "id": MAX_REQUEST_ID + 1}, ErrorCode.PROTO_INVALID, None),
    (
        {"type": "resume", "id": 1_000_012, "token": "t" * 24, "last_seq": -1},
        ErrorCode.PROTO_INVALID,
        1_000_012,
    ),
    (
        {
            "type": "move",
            "id": 1_000_013,
            "move": "draw",
            "move_id": "m",
            "expected_version": 2**64 - 1,
        },
        ErrorCode.PROTO_INVALID,
        1_000_013,
    ),
    # nested garbage and over-long strings
    (
        {
            "type": "create_room",
            "id": 1_000_014,
            "variant": "little-forty",
            "name": "A",
            "settings": {"max_players": {"a": [1, [2, {"b": None}]]}},
        },
        ErrorCode.PROTO_INVALID,
        1_000_014,
    ),
    (
        {"type": "set_settings", "id": 1_000_015, "variant": ["little-forty"], "settings": []},
        ErrorCode.PROTO_INVALID,
        1_000_015,
    ),
    (
        {"type": "create_room", "id": 1_000_016, "variant": "little-forty", "name": "x" * 200},
        ErrorCode.PROTO_TOO_LONG,
        1_000_016,
    ),
    # not one msgpack map
    (b"", ErrorCode.PROTO_MALFORMED, None),
    (b"\xc1", ErrorCode.PROTO_MALFORMED, None),
    (b"\x82\xa4type", ErrorCode.PROTO_MALFORMED, None),
    (msgpack.packb([1, 2, 3]), ErrorCode.PROTO_MALFORMED, None),
    (msgpack.packb(7), ErrorCode.PROTO_MALFORMED, None),
    (msgpack.packb({1: "ping"}), ErrorCode.PROTO_MALFORMED, None),
    (msgpack.packb({"type": "ping", "id": 1_000_017}) * 2, ErrorCode.PROTO_MALFORMED, None),
    # a map, but with a value of a kind the protocol does not use
    (
        msgpack.packb({"type": "ping", "id": msgpack.ExtType(1, b"x")}),
        ErrorCode.PROTO_INVALID,
        None,
    ),
]


async def test_hand_picked_garbage_gets_the_documented_error(arena: Arena) -> None:
    for raw, code, request_id in HAND_PICKED:
        frame = raw if isinstance(raw, bytes) else msgpack.packb(raw)
        replies = await arena.fuzzer.answers_to(frame)
        assert len(replies) == 1, (raw, replies)
        reply = replies[0]
        assert reply.type == "error", (raw, reply)
        assert (reply.code, reply.id) == (code, request_id), raw
        await arena.racers[0].step()
    assert arena.racers[0].version == len(HAND_PICKED)
