"""Two server processes over one Redis: a room's players may sit on either.

Each `RaceServer` here has a store of its own, as a separate process would;
events cross between them only through Redis.
"""

from __future__ import annotations

import asyncio

import pytest

import engine
from protocol import JoinRoom, MakeMove, Resign, Resume, Settings, Sync
from server.app import RaceServer
from tests.conftest import OpenStore
from tests.server._client import Client, start_race
from tests.server.conftest import ServerFactory


async def _client(server: RaceServer) -> Client:
    return await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)


@pytest.mark.every_backend
async def test_a_race_spans_two_processes(
    open_store: OpenStore, start_server: ServerFactory
) -> None:
    first = await start_server(await open_store())
    second = await start_server(await open_store())
    host, guest = await _client(first), await _client(second)
    watcher = await _client(second)
    try:
        deal = 11
        seated = await start_race([host, guest], settings=Settings(countdown_s=1, deal_number=deal))
        await watcher.call(JoinRoom, code=seated[0].code, name="Eve", role="spectator")
        state = engine.new_game("little-forty", b"deal:%d" % deal)
        first_move = engine.legal_moves(state)[0]
        reply = await host.call(
            MakeMove, move=first_move.format(), move_id="a1", expected_version=0
        )
        assert reply.type == "move_ok"
        seen = await guest.wait_event("progress", lambda e: e.seat == 0)
        assert seen.moves == 1
        board = await watcher.wait_event("board", lambda e: e.seat == 0 and e.version == 1)
        expected = engine.view(engine.apply(state, first_move))
        assert board.board.tableau == expected.tableau
        guest_state = state
        for version in range(3):
            move = engine.legal_moves(guest_state)[0]
            guest_state = engine.apply(guest_state, move)
            reply = await guest.call(
                MakeMove, move=move.format(), move_id=f"b{version}", expected_version=version
            )
            assert reply.type == "move_ok"
        for client in (host, guest, watcher):
            await client.wait_event("progress", lambda e: e.seat == 1 and e.moves == 3)
        for racer in (host, guest):
            assert (await racer.call(Resign)).type == "ok"
        overs = [await client.wait_event("race_over") for client in (host, guest, watcher)]
        assert all(over == overs[0] for over in overs)
        results = sorted((r.seat, r.outcome, r.moves) for r in overs[0].ranking)
        assert results == [(0, "resigned", 1), (1, "resigned", 3)]
        joined_at = seated[1].seq
        assert host.seqs() == list(range(1, host.seqs()[-1] + 1))
        assert guest.seqs() == [seq for seq in host.seqs() if seq > joined_at]
    finally:
        for client in (host, guest, watcher):
            await client.close()


async def test_either_process_starts_the_race(
    open_store: OpenStore, start_server: ServerFactory
) -> None:
    """The countdown timer runs in both processes; exactly one start is recorded."""
    first = await start_server(await open_store())
    second = await start_server(await open_store())
    clients = [await _client(first), await _client(second), await _client(second)]
    try:
        seated = await start_race(clients, settings=Settings(countdown_s=1, deal_number=11))
        for client, joined in zip(clients, seated, strict=True):
            assert len(client.events("race_started")) == 1
            assert len(client.events("countdown")) == 1
            last = client.events("race_started")[0]
            assert last.race_no == 1
            assert client.seqs() == list(range(joined.seq + 1, client.seqs()[-1] + 1))
    finally:
        for client in clients:
            await client.close()


async def test_a_racer_back_on_another_process_stays_when_the_old_socket_closes_late(
    open_store: OpenStore, start_server: ServerFactory
) -> None:
    """The old socket's process sees it close only after the racer resumed elsewhere
    (a connection that died without a close); that racer is not marked away."""
    first = await start_server(await open_store())
    second = await start_server(await open_store())
    host, guest = await _client(second), await _client(first)
    back = await _client(second)
    try:
        seated = await start_race([host, guest], settings=Settings(countdown_s=1, deal_number=11))
        resumed = await back.call(Resume, token=seated[1].token, last_seq=seated[1].seq)
        assert resumed.type in {"resumed", "snapshot"}
        await guest.close()
        async with asyncio.timeout(10):
            while first.sessions:
                await asyncio.sleep(0)
        room = (await host.call(Sync)).room
        assert not room.players[1].away
        assert host.events("player_left") == []
    finally:
        for client in (host, guest, back):
            await client.close()
