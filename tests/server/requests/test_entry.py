"""Entering and coming back (`server.requests.entry`): resume with the token and the last seq
seen, mid-race and after a long absence."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import (
    CloseCode,
    CreateRoom,
    ErrorCode,
    JoinRoom,
    Leave,
    MakeMove,
    MoveOk,
    Ping,
    RequestRematch,
    Resign,
    Resume,
    Settings,
    Sync,
)
from server.app import RaceServer
from tests.conftest import OpenStore
from tests.server._client import Client, start_race
from tests.server.conftest import ServerFactory

Connect = Callable[[], Awaitable[Client]]
SETTINGS = Settings(countdown_s=1, deal_number=3)
VARIANT = "double-canfield-40"
"""Its stock can be drawn and recycled without end, so "draw"-style moves never run out."""


async def _stock_move(client: Client, version: int, move_id: str) -> MoveOk:
    """Draw, or turn the waste over when the stock is empty."""
    reply = await client.call(MakeMove, move="draw", move_id=move_id, expected_version=version)
    if reply.type == "error":
        reply = await client.call(
            MakeMove, move="recycle", move_id=move_id, expected_version=version
        )
    assert isinstance(reply, MoveOk), reply
    return reply


def _after(client: Client, seq: int) -> list[tuple[int, Any]]:
    """(seq, event) pairs the client received above `seq`, in arrival order."""
    frames = [(frame.seq, frame.event) for frame in client.pushed if frame.type == "event"]
    return [(at, event) for at, event in frames if at > seq]


async def _progress_seen(client: Client, seat: int, moves: int) -> int:
    """Wait for the ``progress`` event of that seat's move; its seq.

    Events reach a client in seq order, so it has every event up to this one.
    """
    await client.wait_event("progress", lambda event: (event.seat, event.moves) == (seat, moves))
    return max(client.seqs())


async def test_missed_events_come_in_order_then_live_ones(connect: Connect) -> None:
    ann, bob = await connect(), await connect()
    joined, _ = await start_race([ann, bob], VARIANT, SETTINGS)
    mine = await _stock_move(ann, 0, "a0")
    await _stock_move(bob, 0, "b0")
    last_seq = await _progress_seen(ann, seat=1, moves=1)
    await ann.close()
    await bob.wait_event("player_left", lambda event: event.seat == 0)
    for version in range(1, 6):
        await _stock_move(bob, version, f"b{version}")

    back = await connect()
    resumed = await back.call(Resume, token=joined.token, last_seq=last_seq)
    assert resumed.type == "resumed"
    assert (resumed.seat, resumed.version, resumed.board) == (0, 1, mine.board)
    await _stock_move(bob, 6, "b6")
    await _stock_move(back, 1, "a1")
    final = await _progress_seen(bob, seat=0, moves=2)
    assert await _progress_seen(back, seat=0, moves=2) == final

    seen = _after(back, last_seq)
    assert [at for at, _ in seen] == list(range(last_seq + 1, final + 1))
    assert seen == _after(bob, last_seq)
    kinds = [event.type for _, event in seen]
    assert kinds[0] == "player_left" and "player_back" in kinds
    assert kinds.count("progress") == 7


async def test_the_seat_is_kept_while_the_player_is_away(connect: Connect) -> None:
    ann, bob = await connect(), await connect()
    joined, _ = await start_race([ann, bob], VARIANT, SETTINGS)
    await ann.close()
    left = await bob.wait_event("player_left", lambda event: event.seat == 0)
    assert left.away is True
    room = (await bob.call(Sync)).room
    assert [(p.seat, p.away) for p in room.players] == [(0, True), (1, False)]

    back = await connect()
    assert (await back.call(Resume, token=joined.token, last_seq=0)).type == "resumed"
    await bob.wait_event("player_back", lambda event: event.seat == 0)
    room = (await bob.call(Sync)).room
    assert [(p.seat, p.away) for p in room.players] == [(0, False), (1, False)]
    assert isinstance(
        await back.call(MakeMove, move="draw", move_id="x", expected_version=0), MoveOk
    )


async def test_unknown_and_stale_tokens_are_refused(connect: Connect) -> None:
    ann, bob = await connect(), await connect()
    unknown = await ann.call(Resume, token=secrets.token_urlsafe(18), last_seq=0)
    assert unknown.type == "error" and unknown.code == ErrorCode.AUTH_BAD_TOKEN
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=SETTINGS)
    joined = await bob.call(JoinRoom, code=created.code, name="Bob")
    assert (await bob.call(Leave)).type == "ok"
    stale = await bob.call(Resume, token=joined.token, last_seq=joined.seq)
    assert stale.type == "error" and stale.code == ErrorCode.AUTH_BAD_TOKEN
    assert stale.id is not None
    assert (await bob.call(Ping)).type == "pong"


async def test_resuming_on_a_second_socket_closes_the_first(connect: Connect) -> None:
    ann, bob = await connect(), await connect()
    joined, _ = await start_race([ann, bob], VARIANT, SETTINGS)
    await _stock_move(ann, 0, "a0")
    second = await connect()
    resumed = await second.call(Resume, token=joined.token, last_seq=0)
    assert resumed.type == "resumed" and resumed.version == 1
    assert await ann.closed() == CloseCode.REPLACED
    await _stock_move(second, 1, "a1")
    await _stock_move(bob, 0, "b0")
    await second.wait_event("progress", lambda event: event.seat == 1)
    assert not bob.events("player_left")


async def test_a_last_seq_beyond_the_log_gets_a_snapshot(
    open_store: OpenStore, start_server: ServerFactory
) -> None:
    """The room's log keeps only the newest events: a long absence is answered with a snapshot."""
    store = await open_store(stream_maxlen=5)
    server = await start_server(store, rate_per_s=10_000, rate_burst=10_000)
    url = f"ws://127.0.0.1:{server.port}"
    ann, bob = await Client.open(url, server.clock), await Client.open(url, server.clock)
    joined, _ = await start_race([ann, bob], VARIANT, SETTINGS)
    mine = await _stock_move(ann, 0, "a0")
    await ann.close()
    for version in range(300):
        await _stock_move(bob, version, f"b{version}")
    room_seq = (await bob.call(Sync)).seq

    back = await Client.open(url, server.clock)
    snapshot = await back.call(Resume, token=joined.token, last_seq=joined.seq)
    assert snapshot.type == "snapshot"
    assert (snapshot.seat, snapshot.version, snapshot.board) == (0, 1, mine.board)
    assert snapshot.seq >= room_seq and snapshot.room.phase == "racing"
    moves = {player.seat: player.moves for player in snapshot.room.players}
    assert moves == {0: 1, 1: 300}
    assert await store.events_since(joined.code, joined.seq) is None
    await _stock_move(back, 1, "a1")
    await back.wait_event("progress", lambda event: event.seat == 0 and event.moves == 2)
    assert all(seq > snapshot.seq for seq in back.seqs())


async def test_a_last_seq_ahead_of_the_room_gets_a_snapshot(
    connect: Connect, race_server: RaceServer
) -> None:
    ann, bob = await connect(), await connect()
    joined, _ = await start_race([ann, bob], VARIANT, SETTINGS)
    await ann.close()
    back = await connect()
    snapshot = await back.call(Resume, token=joined.token, last_seq=10_000)
    assert snapshot.type == "snapshot"
    assert snapshot.seq < 10_000 and snapshot.version == 0
    assert snapshot.board is not None and snapshot.room.code == joined.code


async def test_a_spectator_who_comes_back_is_counted_again(connect: Connect) -> None:
    ann, watcher = await connect(), await connect()
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=SETTINGS)
    watching = await watcher.call(JoinRoom, code=created.code, name="Eve", role="spectator")
    await ann.wait_event("spectator_count", lambda event: event.count == 1)
    await watcher.close()
    await ann.wait_event("spectator_count", lambda event: event.count == 0)

    back = await connect()
    assert (await back.call(Resume, token=watching.token, last_seq=0)).type in {
        "resumed",
        "snapshot",
    }
    await ann.wait_event("spectator_count", lambda event: event.count == 1)
    assert (await ann.call(Sync)).room.spectators == 1

    again = await connect()
    assert (await again.call(Resume, token=watching.token, last_seq=0)).type in {
        "resumed",
        "snapshot",
    }
    assert await back.closed() == CloseCode.REPLACED
    assert (await ann.call(Sync)).room.spectators == 1


async def test_a_token_whose_seat_went_to_a_newcomer_is_refused(connect: Connect) -> None:
    """Bob left mid-race; the rematch freed his seat and Cy took it. Bob's old token
    gets Bob nothing, and Cy keeps the seat."""
    ann, bob, cy = await connect(), await connect(), await connect()
    seated = await start_race([ann, bob], VARIANT, SETTINGS)
    assert (await bob.call(Resign)).type == "ok"
    await bob.close()
    assert (await ann.call(Resign)).type == "ok"
    await ann.wait_event("race_over")
    assert (await ann.call(RequestRematch)).type == "ok"
    joined = await cy.call(JoinRoom, code=seated[0].code, name="Cy")
    assert joined.seat == seated[1].seat

    back = await connect()
    refused = await back.call(Resume, token=seated[1].token, last_seq=0)
    assert refused.type == "error" and refused.code == ErrorCode.AUTH_BAD_TOKEN
    room = (await cy.call(Sync)).room
    assert [(p.seat, p.name, p.away) for p in room.players] == [(0, "P0", False), (1, "Cy", False)]
    assert cy.events("player_left") == [] and cy.events("player_back") == []
