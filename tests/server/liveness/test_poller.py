"""Deadlines fire in whichever process is alive, with nobody connected to the room.

Each `RaceServer` here has a store of its own, as a separate process would. The
room is set up through a first server whose clients then all go and which then
stops; its deadlines are fired by servers that never had a member in the room.
"""

from __future__ import annotations

import asyncio
from typing import Any

from protocol import (
    Countdown,
    CreateRoom,
    EventFrame,
    JoinRoom,
    Ready,
    Settings,
    decode_server,
    encode_event_frame,
)
from server import room_store
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.conftest import OpenStore
from tests.server._client import Client
from tests.server.conftest import ServerFactory

SETTINGS = Settings(countdown_s=3, time_limit_s=60, deal_number=11)
POLL_MS = 1_000


async def _abandoned_countdown(
    open_store: OpenStore, start_server: ServerFactory
) -> tuple[str, Countdown]:
    """A room of two players in its countdown, whose players and server are all gone."""
    first = await start_server(await open_store())
    url = f"ws://127.0.0.1:{first.port}"
    host, guest = await Client.open(url, first.clock), await Client.open(url, first.clock)
    created = await host.call(CreateRoom, variant="little-forty", name="Ada", settings=SETTINGS)
    assert (await guest.call(JoinRoom, code=created.code, name="Bob")).type == "joined"
    for client in (host, guest):
        assert (await client.call(Ready, ready=True)).type == "ok"
    countdown: Countdown = await host.wait_event("countdown")
    for client in (host, guest):
        await client.close()
    await first.stop()
    return created.code, countdown


async def _events(store: Store, code: str, kind: str) -> list[Any]:
    """The room's events of `kind`, as stored in its event log."""
    stored = await store.events_since(code, 0)
    assert stored is not None
    frames = [decode_server(encode_event_frame(seq, body)) for seq, body in stored]
    return [f.event for f in frames if isinstance(f, EventFrame) and f.event.type == kind]


async def _past(clock: ManualClock, when_ms: int, *servers: RaceServer) -> None:
    """Move the clock a poll past `when_ms`; wait for each server's poll since `when_ms`."""
    clock.advance_to(when_ms + POLL_MS)
    async with asyncio.timeout(10):
        for server in servers:
            await server.poller.polled_since(when_ms)


async def test_a_race_nobody_is_connected_to_starts_and_ends_on_time(
    open_store: OpenStore, start_server: ServerFactory, clock: ManualClock
) -> None:
    code, countdown = await _abandoned_countdown(open_store, start_server)
    other = await start_server(await open_store())
    reader = await open_store()
    clock.advance_to(countdown.start_at_ms - 1)
    async with asyncio.timeout(10):
        await other.poller.polled_since(countdown.start_at_ms - 1)
    assert await _events(reader, code, "race_started") == []
    await _past(clock, countdown.start_at_ms, other)
    (started,) = await _events(reader, code, "race_started")
    assert started.start_at_ms == countdown.start_at_ms
    assert other.hub.members == {}
    await _past(clock, started.ends_at_ms, other)
    (over,) = await _events(reader, code, "race_over")
    assert [(r.seat, r.outcome, r.finished_at_ms) for r in over.ranking] == [
        (0, "timeout", started.ends_at_ms),
        (1, "timeout", started.ends_at_ms),
    ]
    room, _, _ = await room_store.load(reader, code)
    assert room.phase == "finished"
    assert await reader.deadline_of(code) is None
    assert other.poller.fired == 2


async def test_two_processes_fire_one_due_deadline_once(
    open_store: OpenStore, start_server: ServerFactory, clock: ManualClock
) -> None:
    code, countdown = await _abandoned_countdown(open_store, start_server)
    servers = [await start_server(await open_store()) for _ in range(2)]
    reader = await open_store()
    await _past(clock, countdown.start_at_ms, *servers)
    assert sum(server.poller.fired for server in servers) == 1
    (started,) = await _events(reader, code, "race_started")
    await _past(clock, started.ends_at_ms, *servers)
    assert sum(server.poller.fired for server in servers) == 2
    assert len(await _events(reader, code, "race_over")) == 1


async def test_a_deadline_whose_claimer_died_comes_due_again(
    open_store: OpenStore, start_server: ServerFactory, clock: ManualClock
) -> None:
    code, countdown = await _abandoned_countdown(open_store, start_server)
    lease_ms = 10_000
    other = await start_server(await open_store(), deadline_lease_s=lease_ms / 1000)
    dead = await open_store()
    due = countdown.start_at_ms
    assert await dead.claim_deadlines(due, due + lease_ms) == [code]
    await dead.close()
    await _past(clock, due, other)
    await _past(clock, due + lease_ms - POLL_MS - 1, other)
    assert other.poller.fired == 0
    assert await _events(other.store, code, "race_started") == []
    await _past(clock, due + lease_ms, other)
    assert other.poller.fired == 1
    (started,) = await _events(other.store, code, "race_started")
    assert started.start_at_ms == due


async def test_a_time_limit_cut_short_after_timing_out_the_games_is_finished_later(
    open_store: OpenStore, start_server: ServerFactory, clock: ManualClock
) -> None:
    """A process died after timing out every game at the time limit, before the room knew."""
    code, countdown = await _abandoned_countdown(open_store, start_server)
    other = await start_server(await open_store())
    await _past(clock, countdown.start_at_ms, other)
    (started,) = await _events(other.store, code, "race_started")
    dead = await open_store()
    assert await dead.claim_deadlines(started.ends_at_ms, started.ends_at_ms + 10_000) == [code]
    for seat in (0, 1):
        assert await dead.finish_player(code, seat, "timeout", started.ends_at_ms) is not None
    await _past(clock, started.ends_at_ms + 10_000, other)
    (over,) = await _events(other.store, code, "race_over")
    assert {(r.outcome, r.finished_at_ms) for r in over.ranking} == {
        ("timeout", started.ends_at_ms)
    }
