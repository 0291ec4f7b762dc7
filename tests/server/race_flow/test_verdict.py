"""The solver's verdict after a race: an event after ``race_over``, then in snapshots.

Pinned public deals the solver decides in milliseconds: Little Milligan 2 is
won (its line is not the point, only its length), Little Billie 7 unwinnable.
A lone racer resigns at once, so every race here ends on its first request.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from protocol import DealVerdict, RequestRematch, Resign, Settings, Sync
from server import room_store
from server.app import RaceServer
from server.lifecycle import room as rooms
from server.lifecycle.room import Transition
from server.race_flow import verdict
from server.solver.jobs import deal_verdict
from server.solver.pool import Analyst
from server.store import Store
from tests.conftest import OpenStore
from tests.server._client import Client, start_race
from tests.server.conftest import ServerFactory

pytestmark = pytest.mark.solver_workers


async def _resigned_race(server: RaceServer, variant: str, deal: int) -> tuple[Client, str]:
    """A lone player's race on the public deal, resigned at once: the client and room code."""
    client = await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)
    (joined,) = await start_race([client], variant, Settings(countdown_s=1, deal_number=deal))
    assert (await client.call(Resign)).type == "ok"
    await client.wait_event("race_over")
    return client, joined.code


async def _settled(server: RaceServer) -> None:
    """Every verdict the server started has been saved (or given up)."""
    await asyncio.gather(*server.services.background)


async def _seq(store: Store, code: str) -> int:
    return (await room_store.load(store, code))[2]


async def test_a_won_deal_is_announced_after_the_results_and_kept_in_snapshots(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, verdict_budget_s=5.0)
    client, _ = await _resigned_race(server, "little-milligan", 2)
    try:
        analysed = await client.wait_event("deal_analysed")
        types = [event.type for event in client.events()]
        assert types.index("race_over") < types.index("deal_analysed")
        _, length = deal_verdict("little-milligan", b"deal:2", 5.0)
        expected = DealVerdict(race_no=1, verdict="won", line_moves=length, budget_s=5.0)
        assert analysed.verdict == expected
        snapshot = await client.call(Sync)
        assert snapshot.room.verdict == expected
        assert _jobs(server, "won") == 1
    finally:
        await client.close()


def _jobs(server: RaceServer, result: str) -> float:
    """Verdicts counted in ``/metrics`` with ``result``."""
    labels = {"kind": "verdict", "result": result}
    registry = server.services.metrics.registry
    return registry.get_sample_value("solrace_solver_jobs_total", labels) or 0.0


async def test_an_unwinnable_deal_is_said_so_once_even_if_analysed_again(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, verdict_budget_s=5.0)
    client, code = await _resigned_race(server, "little-billie", 7)
    try:
        first = await client.wait_event("deal_analysed")
        assert (first.verdict.verdict, first.verdict.line_moves) == ("unwinnable", None)
        await _settled(server)
        room, _, seq = await room_store.load(store, code)
        assert await verdict.analyse(server.services, code, room) == first.verdict
        assert await _seq(store, code) == seq
        assert (await client.call(Sync)).room.verdict == first.verdict
    finally:
        await client.close()


async def test_a_verdict_finished_after_the_rematch_is_dropped(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, analysis_workers=0)
    client, code = await _resigned_race(server, "little-billie", 7)
    try:
        await _settled(server)
        raced, _, _ = await room_store.load(store, code)
        assert (await client.call(RequestRematch)).type == "ok"
        seq = await _seq(store, code)
        server.services.analyst = Analyst(workers=1, queue=0)
        late = await verdict.analyse(server.services, code, raced)
        assert late is not None and late.race_no == 1
        assert await _seq(store, code) == seq
        snapshot = await client.call(Sync)
        assert (snapshot.room.race_no, snapshot.room.verdict) == (2, None)
    finally:
        server.services.analyst.close()
        await client.close()


async def test_two_processes_analysing_the_same_race_record_one_verdict(
    store: Store, open_store: OpenStore, start_server: ServerFactory
) -> None:
    first = await start_server(store, analysis_workers=0)
    second = await start_server(await open_store(), analysis_workers=0)
    client, code = await _resigned_race(first, "little-billie", 7)
    try:
        await _settled(first)
        raced, _, seq = await room_store.load(store, code)
        for server in (first, second):
            server.services.analyst = Analyst(workers=1, queue=0)
        both = [verdict.analyse(server.services, code, raced) for server in (first, second)]
        assert len({found.verdict for found in await asyncio.gather(*both) if found}) == 1
        assert await _seq(store, code) == seq + 1
        await client.wait_event("deal_analysed")
        assert len(client.events("deal_analysed")) == 1
    finally:
        for server in (first, second):
            server.services.analyst.close()
        await client.close()


async def test_without_a_free_worker_the_race_ends_with_no_verdict(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, analysis_workers=0)
    client, code = await _resigned_race(server, "little-milligan", 2)
    try:
        await _settled(server)
        snapshot = await client.call(Sync)
        assert (snapshot.room.phase, snapshot.room.verdict) == ("finished", None)
        assert client.events("deal_analysed") == []
        room, _, _ = await room_store.load(store, code)
        assert await verdict.analyse(server.services, code, room) is None
    finally:
        await client.close()


def test_a_verdict_is_recorded_only_for_the_finished_race_it_is_about() -> None:
    room = rooms.create(
        "ABCD", "little-billie", Settings(deal_number=7), "Ada", b"", process="p1", token="t-Ada"
    ).room
    won = DealVerdict(race_no=1, verdict="won", line_moves=80, budget_s=1.0)
    assert verdict.analysed(room, won) == Transition(room)
    finished = replace(room, phase="finished")
    recorded = verdict.analysed(finished, won)
    assert recorded.room.verdict == won
    assert [event.type for event in recorded.events] == ["deal_analysed"]
    assert verdict.analysed(recorded.room, won) == Transition(recorded.room)
    assert verdict.analysed(replace(finished, race_no=2), won).events == ()
