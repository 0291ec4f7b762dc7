"""A process cut off from Redis long enough for the others to let its people go, then back.

The cut-off process reaches Redis through `RedisProxy`; cutting it closes that
process's connections (Redis drops its subscriptions with them) while the other
process still reaches Redis and, two sweeps later, lets the cut-off one's players and
spectators go. Once the proxy lets it through again, its feed subscribes again and
it puts right what was let go of its live sockets.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator

import pytest

from protocol import (
    CloseCode,
    CreateRoom,
    ErrorCode,
    Joined,
    JoinRoom,
    Ready,
    Resume,
    RoomEvent,
    Settings,
    Sync,
)
from protocol.limits import MAX_SPECTATORS
from server import room_store
from server.app import RaceServer
from server.clock import ManualClock
from server.lifecycle import presence
from server.lifecycle.room import Room, Transition
from server.store import Store
from tests.server._client import Client, start_race
from tests.server._proxy import RedisProxy
from tests.server.conftest import ServerFactory

SETTINGS = Settings(countdown_s=1, deal_number=11)
SWEEP_MS = 10_000


@pytest.fixture
async def proxy(redis_url: str) -> AsyncIterator[RedisProxy]:
    proxy = RedisProxy(redis_url)
    yield proxy
    await proxy.close()


@pytest.fixture
async def servers(
    proxy: RedisProxy, redis_url: str, key_prefix: str, start_server: ServerFactory
) -> tuple[RaceServer, RaceServer]:
    """A server that reaches Redis through `proxy` (to be cut off), and one that
    reaches it directly (staying)."""
    through = await Store.connect(await proxy.start(), key_prefix, retries=1)
    direct = await Store.connect(redis_url, key_prefix)
    return await start_server(through), await start_server(direct)


async def _client(server: RaceServer) -> Client:
    return await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)


async def _cut(proxy: RedisProxy, staying: RaceServer, code: str, cut: RaceServer) -> None:
    """Cut `cut` off; wait until Redis has dropped its subscription to the room."""
    await proxy.cut()
    async with asyncio.timeout(10):
        while await staying.store.listening({(code, cut.store.process)}):
            pass


async def _racing_with_eve(
    cut: RaceServer, staying: RaceServer
) -> tuple[tuple[Client, Client, Client], list[Joined]]:
    """Ann (on `cut`) racing Bob (on `staying`), Eve (on `cut`) watching; Ann's and
    Bob's seats as `start_race` gives them."""
    ann, eve, bob = await _client(cut), await _client(cut), await _client(staying)
    seated = await start_race([ann, bob], settings=SETTINGS)
    await eve.call(JoinRoom, code=seated[0].code, name="Eve", role="spectator")
    await bob.wait_event("spectator_count", lambda event: event.count == 1)
    return (ann, eve, bob), seated


async def _sweep(clock: ManualClock, server: RaceServer) -> None:
    """Move the clock a sweep period on; wait for the server's sweep of that time."""
    clock.advance(SWEEP_MS)
    async with asyncio.timeout(10):
        await server.sweep.swept_since(clock.now_ms())


async def _let_go(clock: ManualClock, staying: RaceServer) -> None:
    """Two sweeps of the process still reaching Redis: the cut-off one is gone to it."""
    for _ in range(2):
        await _sweep(clock, staying)


async def test_a_racer_and_a_spectator_let_go_while_their_process_was_cut_off_come_back(
    proxy: RedisProxy, servers: tuple[RaceServer, RaceServer], clock: ManualClock
) -> None:
    cut, staying = servers
    (ann, eve, bob), seated = await _racing_with_eve(cut, staying)
    code = seated[0].code

    await _cut(proxy, staying, code, cut)
    await _let_go(clock, staying)
    room = (await bob.call(Sync)).room
    assert room.players[0].away and room.host == 1 and room.spectators == 0

    proxy.mend()
    await bob.wait_event("player_back", lambda event: event.seat == 0)
    await bob.wait_event("spectator_count", lambda _: len(bob.events("spectator_count")) == 3)
    assert [event.count for event in bob.events("spectator_count")] == [1, 0, 1]
    await ann.wait_event("player_back", lambda event: event.seat == 0)
    room = (await bob.call(Sync)).room
    assert not room.players[0].away and room.host == 1 and room.spectators == 1
    assert [event.seat for event in bob.events("host_changed")] == [1]
    for client in (ann, eve, bob):
        await client.close()


async def test_a_lobby_player_whose_seat_was_taken_meanwhile_is_closed_let_go(
    proxy: RedisProxy, servers: tuple[RaceServer, RaceServer], clock: ManualClock
) -> None:
    cut, staying = servers
    ann, cy = await _client(staying), await _client(cut)
    created = await ann.call(CreateRoom, variant="little-forty", name="Ann", settings=SETTINGS)
    seated = await cy.call(JoinRoom, code=created.code, name="Cy")
    assert seated.seat == 1

    await _cut(proxy, staying, created.code, cut)
    await _let_go(clock, staying)
    await ann.wait_event("player_left", lambda event: event.seat == 1 and not event.away)
    dan = await _client(staying)
    assert (await dan.call(JoinRoom, code=created.code, name="Dan")).seat == 1

    proxy.mend()
    assert await cy.closed() == CloseCode.LET_GO
    again = await _client(staying)
    refused = await again.call(Resume, token=seated.token, last_seq=seated.seq)
    assert refused.type == "error" and refused.code == ErrorCode.AUTH_BAD_TOKEN
    assert (await again.call(JoinRoom, code=created.code, name="Cy")).seat == 2
    assert (await dan.call(Ready, ready=True)).type == "ok"
    room = (await ann.call(Sync)).room
    assert [(p.seat, p.name, p.ready) for p in room.players] == [
        (0, "Ann", False),
        (1, "Dan", True),
        (2, "Cy", False),
    ]
    for client in (ann, cy, dan, again):
        await client.close()


async def test_a_racer_who_resumed_elsewhere_meanwhile_has_the_old_socket_closed(
    proxy: RedisProxy, servers: tuple[RaceServer, RaceServer], clock: ManualClock
) -> None:
    cut, staying = servers
    ann, bob = await _client(cut), await _client(staying)
    seated = await start_race([ann, bob], settings=SETTINGS)
    code = seated[0].code

    await _cut(proxy, staying, code, cut)
    await _let_go(clock, staying)
    back = await _client(staying)
    resumed = await back.call(Resume, token=seated[0].token, last_seq=seated[0].seq)
    assert resumed.type in {"resumed", "snapshot"}
    await bob.wait_event("player_back", lambda event: event.seat == 0)

    proxy.mend()
    assert await ann.closed() == CloseCode.REPLACED
    room = (await bob.call(Sync)).room
    assert not room.players[0].away
    assert len(bob.events("player_left")) == len(bob.events("player_back")) == 1
    for client in (ann, bob, back):
        await client.close()


async def test_a_drop_that_lands_after_the_process_is_back_is_put_right_by_its_sweep(
    servers: tuple[RaceServer, RaceServer], clock: ManualClock
) -> None:
    """The other process wrote what its sweep found just as this one came back (here
    the write is made by hand): this process's own sweep sees its live sockets let
    go while it listens, and takes them back."""
    cut, staying = servers
    (ann, eve, bob), seated = await _racing_with_eve(cut, staying)
    code = seated[0].code

    await _dropped_by_hand(staying, cut, code, clock)
    await ann.wait_event("player_left", lambda event: event.seat == 0 and event.away)
    await _sweep(clock, cut)
    await bob.wait_event("player_back", lambda event: event.seat == 0)
    room = (await bob.call(Sync)).room
    assert not room.players[0].away and room.spectators == 1
    for client in (ann, eve, bob):
        await client.close()


async def test_a_spectator_whose_place_was_filled_meanwhile_is_closed_let_go(
    servers: tuple[RaceServer, RaceServer], clock: ManualClock
) -> None:
    cut, staying = servers
    ann, eve = await _client(staying), await _client(cut)
    created = await ann.call(CreateRoom, variant="little-forty", name="Ann", settings=SETTINGS)
    watching = await eve.call(JoinRoom, code=created.code, name="Eve", role="spectator")
    await ann.wait_event("spectator_count", lambda event: event.count == 1)

    await _dropped_by_hand(staying, cut, created.code, clock)
    fill = functools.partial(_every_place_taken, process=staying.store.process)
    await room_store.update(staying.store, created.code, fill)
    await eve.wait_event("spectator_count", lambda event: event.count == MAX_SPECTATORS)
    await _sweep(clock, cut)
    assert await eve.closed() == CloseCode.LET_GO
    again = await _client(staying)
    refused = await again.call(Resume, token=watching.token, last_seq=watching.seq)
    assert refused.type == "error" and refused.code == ErrorCode.ROOM_FULL
    for client in (ann, eve, again):
        await client.close()


async def _dropped_by_hand(
    staying: RaceServer, cut: RaceServer, code: str, clock: ManualClock
) -> None:
    """What `staying`'s sweep writes on taking `cut` for gone, written at once."""
    drop = functools.partial(
        presence.drop_processes, processes={cut.store.process}, now_ms=clock.now_ms()
    )
    await room_store.update(staying.store, code, drop)


def _every_place_taken(room: Room, process: str) -> Transition:
    """Spectators held by `process` in every spectator place left."""
    published: tuple[RoomEvent, ...] = ()
    for number in range(MAX_SPECTATORS - room.spectators):
        room, counted = presence.watch(room, f"watcher-{number}", process)
        published += counted
    return Transition(room, published)
