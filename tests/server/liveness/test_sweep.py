"""Players and spectators held by a process that is gone are let go by the others' sweep.

Each `RaceServer` here has a store of its own, as a separate process would. The
gone process here stopped, keeping its spectators counted for them to come back
elsewhere; `tests/deploy/test_faults.py` kills one outright.
"""

from __future__ import annotations

import asyncio

from protocol import CreateRoom, JoinRoom, Ready, Resume, Settings, Sync
from server.app import RaceServer
from server.clock import ManualClock
from tests.conftest import OpenStore
from tests.server._client import Client
from tests.server.conftest import ServerFactory

SETTINGS = Settings(deal_number=11)
SWEEP_MS = 10_000


async def _client(server: RaceServer) -> Client:
    return await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)


async def _sweep(clock: ManualClock, server: RaceServer) -> None:
    """Move the clock a sweep period on; wait for the server's sweep of that time."""
    clock.advance(SWEEP_MS)
    async with asyncio.timeout(10):
        await server.sweep.swept_since(clock.now_ms())


async def test_a_spectator_who_never_comes_back_from_a_gone_process_is_dropped(
    open_store: OpenStore, start_server: ServerFactory, clock: ManualClock
) -> None:
    gone, staying = [await start_server(await open_store()) for _ in range(2)]
    ann = await _client(staying)
    created = await ann.call(CreateRoom, variant="little-forty", name="Ann", settings=SETTINGS)
    eve, dan = await _client(gone), await _client(gone)
    watching = await eve.call(JoinRoom, code=created.code, name="Eve", role="spectator")
    await dan.call(JoinRoom, code=created.code, name="Dan", role="spectator")
    await ann.wait_event("spectator_count", lambda event: event.count == 2)

    await gone.stop()
    back = await _client(staying)
    assert (await back.call(Resume, token=watching.token, last_seq=0)).type in {
        "resumed",
        "snapshot",
    }
    assert (await ann.call(Sync)).room.spectators == 2
    await _sweep(clock, staying)
    assert (await ann.call(Sync)).room.spectators == 2, "one look is not enough to drop"
    await _sweep(clock, staying)
    assert (await ann.call(Sync)).room.spectators == 1
    await ann.wait_event("spectator_count", lambda _: len(ann.events("spectator_count")) == 3)
    assert [event.count for event in ann.events("spectator_count")] == [1, 2, 1]
    for client in (ann, eve, dan, back):
        await client.close()


async def test_the_players_and_spectators_of_a_live_process_stay(
    open_store: OpenStore, start_server: ServerFactory, clock: ManualClock
) -> None:
    first, second = [await start_server(await open_store()) for _ in range(2)]
    ann, bob, eve = await _client(first), await _client(second), await _client(second)
    created = await ann.call(CreateRoom, variant="little-forty", name="Ann", settings=SETTINGS)
    await bob.call(JoinRoom, code=created.code, name="Bob")
    await eve.call(JoinRoom, code=created.code, name="Eve", role="spectator")
    await ann.wait_event("spectator_count", lambda event: event.count == 1)
    for _ in range(3):
        await _sweep(clock, first)
    room = (await ann.call(Sync)).room
    assert room.spectators == 1 and [player.name for player in room.players] == ["Ann", "Bob"]
    await eve.close()
    await ann.wait_event("spectator_count", lambda event: event.count == 0)
    for client in (ann, bob):
        await client.close()


async def test_a_host_who_never_comes_back_from_a_gone_process_hands_the_room_over(
    open_store: OpenStore, start_server: ServerFactory, clock: ManualClock
) -> None:
    gone, staying = [await start_server(await open_store()) for _ in range(2)]
    ann, bob = await _client(gone), await _client(staying)
    created = await ann.call(CreateRoom, variant="little-forty", name="Ann", settings=SETTINGS)
    await bob.call(JoinRoom, code=created.code, name="Bob")
    assert (await bob.call(Ready, ready=True)).type == "ok"

    await gone.stop()
    await _sweep(clock, staying)
    assert (await bob.call(Sync)).room.host == 0
    await _sweep(clock, staying)
    room = (await bob.call(Sync)).room
    assert [player.name for player in room.players] == ["Bob"] and room.host == 1
    await bob.wait_event("host_changed", lambda event: event.seat == 1)
    await bob.wait_event("countdown")
    for client in (ann, bob):
        await client.close()
