"""Hints over real sockets: practice rooms only, racers only, the line kept while followed.

Little Milligan deal 2 is won by the solver in milliseconds from its first
position; Little Billie deal 7 is proven unwinnable as fast.
"""

from __future__ import annotations

import pytest

import engine
from protocol import AskHint, ErrorCode, JoinRoom, MakeMove, Resign, Settings, Sync
from server.app import RaceServer
from server.solver.jobs import winning_line
from server.solver.pool import Analyst
from server.store import Store
from tests.server._client import Client, start_race
from tests.server.conftest import ServerFactory

pytestmark = pytest.mark.solver_workers

PRACTICE = Settings(countdown_s=1, deal_number=2, practice=True)
LINE = winning_line("little-milligan", b"deal:2", (), 5.0)[1]


async def _racer(
    server: RaceServer, settings: Settings = PRACTICE, variant: str = "little-milligan"
) -> Client:
    (client,) = await _racers(server, 1, settings, variant)
    return client


async def _racers(
    server: RaceServer, count: int, settings: Settings = PRACTICE, variant: str = "little-milligan"
) -> list[Client]:
    url = f"ws://127.0.0.1:{server.port}"
    clients = [await Client.open(url, server.clock) for _ in range(count)]
    await start_race(clients, variant, settings)
    return clients


def _off_the_line() -> str:
    """A move of the first position that is not the line's first move and changes the game."""
    dealt = engine.new_game("little-milligan", b"deal:2")
    for move in engine.legal_moves(dealt):
        if move.format() != LINE[0] and engine.apply(dealt, move) != dealt:
            return move.format()
    raise AssertionError("the deal has one move only")


async def _move(client: Client, text: str, version: int) -> None:
    reply = await client.call(MakeMove, move=text, move_id=f"m{version}", expected_version=version)
    assert reply.type == "move_ok", reply


async def test_a_hint_is_the_next_move_of_the_line_and_following_it_needs_no_search(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, hint_budget_s=5.0)
    client = await _racer(server)
    try:
        first = await client.call(AskHint)
        assert (first.version, first.verdict, first.move) == (0, "won", LINE[0])
        await _move(client, LINE[0], 0)
        server.services.analyst.close()
        server.services.analyst = Analyst(workers=0, queue=0)
        second = await client.call(AskHint)
        assert (second.version, second.verdict, second.move) == (1, "won", LINE[1])
    finally:
        await client.close()


async def test_a_player_off_the_line_gets_a_new_search(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, hint_budget_s=5.0)
    client = await _racer(server)
    try:
        assert (await client.call(AskHint)).move == LINE[0]
        await _move(client, _off_the_line(), 0)
        server.services.analyst.close()
        server.services.analyst = Analyst(workers=0, queue=0)
        refused = await client.call(AskHint)
        assert (refused.type, refused.code) == ("error", ErrorCode.SERVER_BUSY)
        labels = {"kind": "hint", "result": "busy"}
        registry = server.services.metrics.registry
        assert registry.get_sample_value("solrace_solver_jobs_total", labels) == 1
    finally:
        await client.close()


async def test_an_unwinnable_position_gets_no_move(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, hint_budget_s=5.0)
    settings = Settings(countdown_s=1, deal_number=7, practice=True)
    client = await _racer(server, settings, "little-billie")
    try:
        hint = await client.call(AskHint)
        assert (hint.version, hint.verdict, hint.move) == (0, "unwinnable", None)
    finally:
        await client.close()


async def test_a_ranked_race_never_gives_a_hint(store: Store, start_server: ServerFactory) -> None:
    server = await start_server(store)
    client = await _racer(server, Settings(countdown_s=1, deal_number=2))
    try:
        refused = await client.call(AskHint)
        assert (refused.type, refused.code) == ("error", ErrorCode.ROOM_NOT_PRACTICE)
    finally:
        await client.close()


async def test_only_a_player_still_racing_gets_a_hint(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store)
    done, racing = await _racers(server, 2)
    watcher = await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)
    try:
        code = (await done.call(Sync)).code
        assert (
            await watcher.call(JoinRoom, code=code, name="W", role="spectator")
        ).type == "joined"
        assert (await watcher.call(AskHint)).code == ErrorCode.MOVE_SPECTATOR
        assert (await done.call(Resign)).type == "ok"
        assert (await done.call(AskHint)).code == ErrorCode.MOVE_FINISHED
        assert (await racing.call(Resign)).type == "ok"
        await racing.wait_event("race_over")
        assert (await racing.call(AskHint)).code == ErrorCode.MOVE_NOT_RACING
    finally:
        for client in (watcher, done, racing):
            await client.close()


async def test_no_free_worker_is_a_busy_server(store: Store, start_server: ServerFactory) -> None:
    server = await start_server(store, analysis_workers=0)
    client = await _racer(server)
    try:
        refused = await client.call(AskHint)
        assert (refused.type, refused.code) == ("error", ErrorCode.SERVER_BUSY)
        labels = {"kind": "hint", "result": "busy"}
        registry = server.services.metrics.registry
        assert registry.get_sample_value("solrace_solver_jobs_total", labels) == 1
    finally:
        await client.close()
