"""Shutdown drains: every request already read is answered before ``going_away``.

Players pipeline moves (all sent, no reply awaited) and the server stops while
most of them wait in their sessions. Each move read gets exactly one reply, every
move the store applied was acknowledged, and then each client gets ``going_away``
and the close 1001. tests/deploy/test_shutdown.py does the same to a server
process with SIGTERM, then resumes and resends what was left unanswered.
"""

from __future__ import annotations

import asyncio

import pytest

from protocol import (
    CloseCode,
    CreateRoom,
    Error,
    GoingAway,
    JoinRoom,
    MoveOk,
    Resume,
    Sync,
    decode_server,
)
from server.store import Store
from tests.conftest import OpenStore
from tests.server._client import Client, start_race
from tests.server._pipeline import (
    FIRST_ID,
    PIPELINED,
    SETTINGS,
    VARIANT,
    pipeline,
    replies,
    stock_line,
)
from tests.server.conftest import ServerFactory


async def test_stop_answers_every_pipelined_move_before_going_away(
    open_store: OpenStore, start_server: ServerFactory
) -> None:
    server = await start_server(await open_store(), rate_per_s=1000.0, rate_burst=1000.0)
    url = f"ws://127.0.0.1:{server.port}"
    clients = [await Client.open(url, server.clock) for _ in range(3)]
    seated = await start_race(clients, VARIANT, SETTINGS)
    line = stock_line(PIPELINED)
    for client, joined in zip(clients, seated, strict=True):
        await pipeline(client, joined.seat or 0, line)
    await clients[0].wait_event("progress")
    await server.stop()

    code, store = seated[0].code, await open_store()
    for client, joined in zip(clients, seated, strict=True):
        assert await client.closed() == CloseCode.GOING_AWAY
        answered = replies(client)
        acked = [m.move_id for m in answered if isinstance(m, MoveOk)]
        log = await store.move_log(code, joined.seat or 0)
        assert [entry.move_id for entry in log] == acked
        ids = [getattr(m, "id", None) for m in answered]
        assert ids == list(range(FIRST_ID, FIRST_ID + PIPELINED)), ids
        assert all(isinstance(m, MoveOk | Error) for m in answered)
        last = decode_server(client.frames[-1])
        assert isinstance(last, GoingAway), last
        assert not any(isinstance(m, GoingAway) for m in map(decode_server, client.frames[:-1]))
    for client in clients:
        await client.close()


async def test_stop_with_nothing_in_flight_still_says_going_away(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store)
    idle = await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)
    silent = await Client.dial(f"ws://127.0.0.1:{server.port}", server.clock)
    await server.stop()
    for client in (idle, silent):
        assert await client.closed() == CloseCode.GOING_AWAY
        assert [m.type for m in client.pushed] == ["going_away"]
        await client.close()


async def test_a_request_stuck_in_the_store_cannot_hold_the_shutdown_past_its_grace(
    open_store: OpenStore, start_server: ServerFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The drain waits for requests in flight only until ``shutdown_grace_s``; then it aborts."""
    grace_s = 0.3
    store = await open_store()
    server = await start_server(store, shutdown_grace_s=grace_s)
    url = f"ws://127.0.0.1:{server.port}"
    stuck, idle = await Client.open(url, server.clock), await Client.open(url, server.clock)
    await start_race([stuck], VARIANT, SETTINGS)
    entered, never = asyncio.Event(), asyncio.Event()

    async def hang(*args: object, **kwargs: object) -> None:
        entered.set()
        await never.wait()

    monkeypatch.setattr(store, "commit_move", hang)
    await pipeline(stuck, 0, stock_line(1))
    await entered.wait()
    async with asyncio.timeout(grace_s + 2):
        await server.stop()
    assert await idle.closed() == CloseCode.GOING_AWAY
    assert [m.type for m in idle.pushed] == ["going_away"]
    assert await stuck.closed() != CloseCode.GOING_AWAY
    assert replies(stuck) == []
    for client in (stuck, idle):
        await client.close()


async def test_a_spectator_sent_away_by_a_stop_is_counted_once_where_it_comes_back(
    open_store: OpenStore, start_server: ServerFactory
) -> None:
    """The stopping process keeps its spectators counted, as it keeps its racers'
    seats: coming back elsewhere, they take their place over."""
    stopping, staying = [await start_server(await open_store()) for _ in range(2)]
    ann = await Client.open(f"ws://127.0.0.1:{staying.port}", staying.clock)
    created = await ann.call(CreateRoom, variant=VARIANT, name="Ann", settings=SETTINGS)
    eve = await Client.open(f"ws://127.0.0.1:{stopping.port}", stopping.clock)
    watching = await eve.call(JoinRoom, code=created.code, name="Eve", role="spectator")
    await ann.wait_event("spectator_count", lambda event: event.count == 1)

    await stopping.stop()
    assert await eve.closed() == CloseCode.GOING_AWAY
    back = await Client.open(f"ws://127.0.0.1:{staying.port}", staying.clock)
    assert (await back.call(Resume, token=watching.token, last_seq=0)).type in {
        "resumed",
        "snapshot",
    }
    assert (await ann.call(Sync)).room.spectators == 1
    assert [event.count for event in ann.events("spectator_count")] == [1]
    for client in (ann, eve, back):
        await client.close()
