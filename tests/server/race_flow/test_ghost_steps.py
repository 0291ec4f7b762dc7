"""A challenge room's ghost steps take the short deadline path: they leave the seats
alone, and a ghost step beginning a new stretch of `FULL_CHECK_MS` brings in a finish
a dead process committed but never recorded in the room (real Valkey, manual clock)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

import pytest

from protocol import CreateChallenge, GhostInfo, JoinRoom, Settings, Sync
from server import room_store
from server.app import RaceServer
from server.clock import ManualClock
from server.lifecycle import race as races
from server.lifecycle import room as r
from server.lifecycle.state import Ghost
from server.race_flow.deadlines import FULL_CHECK_MS, is_ghost_step_only
from tests.server._client import Client
from tests.server._players import Connect, pin_secrets
from tests.server.conftest import opened_clients
from tests.server.race_flow._ghosts import race_challenge
from tests.server.requests._challenges import SEED, STEP_MS, finished_race

ANN_MOVES = 34
"""Ann's run brings cards home after moves 1, 3, 27, 31 and 34: steps past 30 s."""
START = 1_000_000


def _racing(*steps: int, settings: Settings | None = None) -> r.Room:
    """Cid racing since `START` against one ghost with steps at race times `steps`."""
    made = r.create(
        "ABC234", "little-forty", settings or Settings(), "Cid", SEED, process="p", token="t"
    )
    ghost = Ghost("Ann", True, tuple((at, i, i) for i, at in enumerate(steps)), "won")
    room = replace(made.room, ghosts=(ghost,), challenge="CHALNG")
    room = r.set_ready(room, 0, True, START - 10_000).room
    return races.start(room, room.start_at_ms or 0).room


def test_a_step_in_a_stretch_already_checked_is_ghost_only() -> None:
    room = _racing(0, 1_500, FULL_CHECK_MS + 500)
    start = room.start_at_ms or 0
    assert not is_ghost_step_only(room, start)
    first = replace(room, ghosts=(replace(room.ghosts[0], shown=1),))
    assert is_ghost_step_only(first, start + 1_000)
    assert is_ghost_step_only(first, start + 1_500)
    second = replace(room, ghosts=(replace(room.ghosts[0], shown=2),))
    assert not is_ghost_step_only(second, start + FULL_CHECK_MS + 500)


def test_a_step_at_the_time_limit_is_not_ghost_only() -> None:
    room = _racing(0, 1_500, 60_000, settings=Settings(time_limit_s=60))
    shown = replace(room, ghosts=(replace(room.ghosts[0], shown=2),))
    assert not is_ghost_step_only(shown, races.time_limit(room))
    assert not is_ghost_step_only(replace(room, ghosts=()), room.start_at_ms or 0)


def _at(at_ms: int) -> Callable[[Any], bool]:
    return lambda event: bool(event.at_ms == at_ms)


async def _settled(server: RaceServer, clock: ManualClock) -> None:
    """Wait until the deadline work due now is done, by the room's timer and the poller."""
    async with asyncio.timeout(10):
        await server.poller.polled_since(clock.now_ms())
        while server.hub.tasks:
            await asyncio.gather(*server.hub.tasks)


@pytest.fixture
async def connect(race_server: RaceServer) -> AsyncIterator[Connect]:
    pin_secrets(race_server, SEED)
    async with opened_clients(Client.open, race_server) as open_:
        yield open_


async def test_ghost_steps_leave_the_seats_until_a_new_stretch_reconciles(
    connect: Connect, clock: ManualClock, race_server: RaceServer
) -> None:
    race, _ = await finished_race(connect, clock, ann_moves=ANN_MOVES)
    code = (await race.racers[0].client.call(CreateChallenge)).challenge.code
    cid = await connect()
    joined, started = await race_challenge(cid, code)
    start, store = started.start_at_ms, race_server.services.store
    await cid.wait_event("ghost_progress", _at(start))
    await _settled(race_server, clock)
    assert await store.finish_player(joined.code, 0, "resigned", start + 100) is not None
    for step in (1, 3):
        cid.advance_to(start + step * STEP_MS)
        await cid.wait_event("ghost_progress", _at(start + step * STEP_MS))
        await _settled(race_server, clock)
        room, _, _ = await room_store.load(store, joined.code)
        assert room.player(0).outcome == "playing"
    cid.advance_to(start + 27 * STEP_MS)
    over = await cid.wait_event("race_over")
    assert [(line.outcome, line.elapsed_ms) for line in over.ranking] == [("resigned", 100)]


async def test_a_late_arrival_sees_each_ghost_as_last_shown(
    connect: Connect, clock: ManualClock
) -> None:
    race, _ = await finished_race(connect, clock)
    code = (await race.racers[0].client.call(CreateChallenge)).challenge.code
    cid = await connect()
    joined, started = await race_challenge(cid, code)
    cid.advance_to(started.start_at_ms + STEP_MS)
    await cid.wait_event("ghost_progress", _at(started.start_at_ms + STEP_MS))
    last = {event.ghost: event for event in cid.events("ghost_progress")}
    shown = [
        GhostInfo(**event.model_dump(exclude={"type", "race_no"}))
        for _, event in sorted(last.items())
    ]
    eve = await connect()
    watching = await eve.call(JoinRoom, code=joined.code, name="Eve", role="spectator")
    assert watching.type == "joined", watching
    assert watching.room.ghosts == tuple(shown) and len(shown) == 2
    assert (await cid.call(Sync)).room.ghosts == tuple(shown)
