"""Requests in the wrong state get the documented error code with their id; framing faults close.

After every error reply the connection must still answer a ping, unless the
protocol says the connection closes (bad version, rate-limit abuse, text frame,
a frame far over the limit).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgpack
import pytest
from pydantic import BaseModel
from websockets.exceptions import ConnectionClosed

from protocol import (
    PROTOCOL_VERSION,
    CloseCode,
    CreateRoom,
    Error,
    ErrorCode,
    Hello,
    JoinRoom,
    Leave,
    MakeMove,
    Ping,
    Ready,
    RequestRematch,
    Resign,
    Resume,
    SetSettings,
    Settings,
    Sync,
)
from protocol.limits import MAX_CLIENT_FRAME, RATE_BURST, RATE_PER_S
from server.app import MAX_WIRE_FRAME, RaceServer
from server.clock import ManualClock
from server.conn import session
from tests.server._client import Client, count_down, start_race
from tests.server.conftest import opened_clients

Connect = Callable[[], Awaitable[Client]]
VARIANT = "little-forty"
SETTINGS = Settings(countdown_s=1, deal_number=5)


async def _refused(
    client: Client, expected: ErrorCode, kind: type[BaseModel], /, **fields: Any
) -> None:
    """`kind` is answered with an `expected` error that names the request; the socket lives on."""
    reply = await client.call(kind, **fields)
    assert reply.type == "error", (kind.__name__, reply)
    assert reply.code == expected, (kind.__name__, reply)
    assert isinstance(reply.id, int) and reply.message
    assert (await client.call(Ping)).type == "pong"


async def test_room_requests_before_joining_are_not_member(connect: Connect) -> None:
    client = await connect()
    not_member = ErrorCode.ROOM_NOT_MEMBER
    await _refused(client, not_member, Leave)
    await _refused(client, not_member, SetSettings, variant=VARIANT, settings=SETTINGS)
    await _refused(client, not_member, Ready, ready=True)
    await _refused(client, not_member, MakeMove, move="draw", move_id="m", expected_version=0)
    await _refused(client, not_member, Resign)
    await _refused(client, not_member, RequestRematch)
    await _refused(client, not_member, Sync)


async def test_unknown_room_code_is_not_found(connect: Connect) -> None:
    client = await connect()
    await _refused(client, ErrorCode.ROOM_NOT_FOUND, JoinRoom, code="ZZZZ22", name="Ann")
    await _refused(
        client, ErrorCode.ROOM_NOT_FOUND, JoinRoom, code="ZZZZ22", name="Ann", role="spectator"
    )


async def test_a_full_room_refuses_a_player(connect: Connect) -> None:
    ann, bob = await connect(), await connect()
    settings = Settings(max_players=1, countdown_s=1)
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=settings)
    await _refused(bob, ErrorCode.ROOM_FULL, JoinRoom, code=created.code, name="Bob")
    spectator = await bob.call(JoinRoom, code=created.code, name="Bob", role="spectator")
    assert spectator.type == "joined" and spectator.seat is None


async def test_a_name_already_seated_is_refused(connect: Connect) -> None:
    ann, other = await connect(), await connect()
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=SETTINGS)
    await _refused(other, ErrorCode.ROOM_NAME_TAKEN, JoinRoom, code=created.code, name="ANN")
    joined = await other.call(JoinRoom, code=created.code, name="Bob")
    assert joined.type == "joined" and joined.seat == 1


async def test_members_cannot_enter_another_room(connect: Connect) -> None:
    ann, bob = await connect(), await connect()
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=SETTINGS)
    joined = await bob.call(JoinRoom, code=created.code, name="Bob")
    already = ErrorCode.ROOM_ALREADY_MEMBER
    await _refused(ann, already, CreateRoom, variant=VARIANT, name="Ann")
    await _refused(bob, already, JoinRoom, code=created.code, name="Bob")
    await _refused(bob, already, Resume, token=joined.token, last_seq=0)
    assert (await bob.call(Leave)).type == "ok"
    assert (await bob.call(CreateRoom, variant=VARIANT, name="Bob")).type == "joined"


async def test_only_the_host_changes_settings_or_calls_a_rematch(connect: Connect) -> None:
    ann, bob = await connect(), await connect()
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=SETTINGS)
    await bob.call(JoinRoom, code=created.code, name="Bob")
    not_host = ErrorCode.ROOM_NOT_HOST
    await _refused(bob, not_host, SetSettings, variant="little-billie", settings=SETTINGS)
    await ann.call(Ready, ready=True)
    await bob.call(Ready, ready=True)
    await count_down(bob)
    await ann.call(Resign)
    await bob.call(Resign)
    await bob.wait_event("race_over")
    await _refused(bob, not_host, RequestRematch)
    assert (await ann.call(RequestRematch)).type == "ok"


async def test_lobby_requests_outside_the_lobby_are_wrong_phase(connect: Connect) -> None:
    ann, bob, cy = await connect(), await connect(), await connect()
    joined, _ = await start_race([ann, bob], VARIANT, SETTINGS)
    wrong = ErrorCode.ROOM_WRONG_PHASE
    await _refused(ann, wrong, Ready, ready=False)
    await _refused(ann, wrong, SetSettings, variant=VARIANT, settings=SETTINGS)
    await _refused(ann, wrong, RequestRematch)
    await _refused(cy, wrong, JoinRoom, code=joined.code, name="Cy")


async def test_a_smaller_room_than_its_seated_players_is_bad_settings(connect: Connect) -> None:
    ann, bob = await connect(), await connect()
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=SETTINGS)
    await bob.call(JoinRoom, code=created.code, name="Bob")
    smaller = Settings(max_players=1, countdown_s=1)
    await _refused(ann, ErrorCode.ROOM_BAD_SETTINGS, SetSettings, variant=VARIANT, settings=smaller)


@pytest.fixture
async def dial(race_server: RaceServer) -> AsyncIterator[Callable[[], Awaitable[Client]]]:
    """Opens connections that have not sent ``hello``; all are closed afterwards."""
    async with opened_clients(Client.dial, race_server) as open_:
        yield open_


async def test_requests_before_hello_and_a_second_hello_are_no_hello(dial: Connect) -> None:
    client = await dial()
    early: list[tuple[type[BaseModel], dict[str, Any]]] = [
        (Ping, {}),
        (Sync, {}),
        (CreateRoom, {"variant": VARIANT, "name": "Ann"}),
    ]
    for kind, fields in early:
        reply = await client.call(kind, **fields)
        assert reply.type == "error" and reply.code == ErrorCode.PROTO_NO_HELLO
    assert (await client.call(Hello, version=PROTOCOL_VERSION)).type == "welcome"
    await _refused(client, ErrorCode.PROTO_NO_HELLO, Hello, version=PROTOCOL_VERSION)


async def test_an_unknown_version_is_refused_then_closed(dial: Connect) -> None:
    client = await dial()
    reply = await client.call(Hello, version=PROTOCOL_VERSION + 1)
    assert reply.type == "error" and reply.code == ErrorCode.PROTO_VERSION
    assert await client.closed() == CloseCode.BAD_VERSION


async def test_a_silent_connection_is_closed(dial: Connect, clock: ManualClock) -> None:
    client = await dial()
    await clock.scheduled()
    clock.advance(int(session.HELLO_TIMEOUT_S * 1000) - 1)
    early = await client.call(Ping)
    assert (early.type, early.code) == ("error", ErrorCode.PROTO_NO_HELLO)
    clock.advance(1)
    assert await client.closed() == CloseCode.HELLO_TIMEOUT


def _errors(client: Client) -> list[Error]:
    return [message for message in client.pushed if isinstance(message, Error)]


async def test_too_many_requests_are_refused_then_closed(
    connect: Connect, race_server: RaceServer
) -> None:
    client = await connect()
    strikes = race_server.config.max_rate_strikes
    ping = msgpack.packb({"type": "ping", "id": 7_000})
    with contextlib.suppress(ConnectionClosed):
        for _ in range(RATE_BURST + strikes + 20):
            await client.send_raw(ping)
    assert await client.closed() == CloseCode.POLICY
    limited = _errors(client)
    assert len(limited) == strikes
    assert {(m.code, m.id) for m in limited} == {(ErrorCode.PROTO_RATE_LIMITED, 7_000)}
    pongs = [m for m in client.pushed if m.type == "pong"]
    assert len(pongs) >= RATE_BURST - 1  # the hello took one


async def test_a_rate_limited_client_may_carry_on_after_slowing_down(
    connect: Connect, clock: ManualClock
) -> None:
    client = await connect()
    ping = msgpack.packb({"type": "ping", "id": 7_000})
    for _ in range(RATE_BURST + 5):
        await client.send_raw(ping)
    await client.wait_pushed("error")
    assert _errors(client)[0].code == ErrorCode.PROTO_RATE_LIMITED
    still = await client.call(Ping)
    assert (still.type, still.code) == ("error", ErrorCode.PROTO_RATE_LIMITED)
    clock.advance(math.ceil(1000 / RATE_PER_S))
    assert (await client.call(Ping)).type == "pong"


async def test_a_text_frame_closes_the_connection(connect: Connect) -> None:
    client = await connect()
    await client.send_raw('{"type": "ping", "id": 1}')
    assert await client.closed() == CloseCode.PROTOCOL_ERROR


async def test_an_oversized_frame_is_refused_and_a_huge_one_closes(connect: Connect) -> None:
    client = await connect()
    over = msgpack.packb({"type": "ping", "id": 9, "pad": "x" * MAX_CLIENT_FRAME})
    (answer,) = await client.answers_to(over)
    assert isinstance(answer, Error)
    assert (answer.code, answer.id) == (ErrorCode.PROTO_TOO_LARGE, None)
    await client.send_raw(b"\x00" * (MAX_WIRE_FRAME + 1))
    assert await client.closed() == CloseCode.TOO_BIG
