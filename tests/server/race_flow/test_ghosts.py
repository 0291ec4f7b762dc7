"""Racing a challenge over real sockets, a real Valkey and a manual clock: the server
plays the recorded runs as ghosts at their recorded race times, shows them as progress
only until the challenger has finished, and adds each challenger's run to the
standings once (ranked, or practice)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from protocol import (
    CreateChallenge,
    GetChallenge,
    Leave,
    MakeMove,
    RaceOver,
    Resign,
    decode_server,
)
from server.app import RaceServer
from server.clock import ManualClock
from server.race_flow import challenge_runs
from tests.server._client import Client
from tests.server._players import Connect, pin_secrets
from tests.server.conftest import opened_clients
from tests.server.race_flow._ghosts import (
    TICK_MS,
    expected_steps,
    ghost_frames,
    race_challenge,
    run_once,
    standings,
    tick_through,
)
from tests.server.race_flow._records import signing_in
from tests.server.requests._challenges import LINE, SEED, STEP_MS, finished_race


@pytest.fixture
async def connect(race_server: RaceServer) -> AsyncIterator[Connect]:
    pin_secrets(race_server, SEED)
    async with opened_clients(Client.open, race_server) as open_:
        yield open_


async def challenge_of(connect: Connect, clock: ManualClock) -> tuple[str, RaceOver]:
    race, over = await finished_race(connect, clock)
    made = await race.racers[0].client.call(CreateChallenge)
    assert made.type == "challenge_created", made
    return made.challenge.code, over


async def test_each_ghost_step_arrives_at_its_recorded_race_time(
    connect: Connect, clock: ManualClock
) -> None:
    code, over = await challenge_of(connect, clock)
    cid = await connect()
    _, started = await race_challenge(cid, code)
    assert (await cid.wait_event("countdown")).seed_commit == over.seed_commit
    steps = expected_steps(over)
    await tick_through(cid, started.start_at_ms, steps)
    got = ghost_frames(cid)
    start_ms = started.start_at_ms
    shown = [(e.at_ms - start_ms, e.ghost, e.progress, e.moves, e.outcome) for _, e in got]
    assert shown == steps
    for arrived, event in got:
        assert 0 <= arrived - event.at_ms < TICK_MS
    assert {(e.ghost, e.name, e.guest) for _, e in got} == {(0, "Ann", True), (1, "Bob", True)}


async def test_no_ghost_move_or_board_reaches_a_challenger_before_it_finishes(
    connect: Connect, clock: ManualClock
) -> None:
    code, over = await challenge_of(connect, clock)
    cid = await connect()
    _, started = await race_challenge(cid, code)
    await tick_through(cid, started.start_at_ms, expected_steps(over))
    racing = await cid.call(GetChallenge, code=code)
    assert all(run.log == () for run in racing.challenge.runs) and racing.challenge.seed is None
    before = len(cid.frames)
    assert (await cid.call(Resign)).type == "ok"
    await cid.wait_event("race_over")
    for frame in cid.frames[:before]:
        message = decode_server(frame)
        event = getattr(message, "event", None)
        assert message.type != "challenge" or all(r.log == () for r in message.challenge.runs)
        assert event is None or event.type not in ("race_over", "board_shown"), event
        assert getattr(message, "board", None) is None or message.type == "move_ok"
    finished = await cid.call(GetChallenge, code=code)
    logs = {line.name: line.log for line in over.ranking}
    assert {run.name: run.log for run in finished.challenge.runs if run.original} == logs
    assert finished.challenge.seed is None


async def test_two_challengers_hours_apart_rank_once_each(
    race_server: RaceServer, clock: ManualClock
) -> None:
    pin_secrets(race_server, SEED)
    services = race_server.services
    async with opened_clients(Client.open, race_server) as open_:
        signed_in = signing_in(open_, ["Annika", "Bobby", "Cidney", "Deirdre"])
        race, _ = await finished_race(signed_in, clock)
        code = (await race.racers[0].client.call(CreateChallenge)).challenge.code
        cid, dee, eve = await signed_in(), await signed_in(), await open_()
        await challenge_runs.add_runs(services, await run_once(cid, code, LINE[:3]))
        clock.advance_to(clock.now_ms() + 5 * 3_600_000)
        joined, started = await race_challenge(dee, code)
        ghosts = await dee.wait_event("ghost_progress", lambda e: e.ghost == 2)
        assert started.start_at_ms == ghosts.at_ms
        assert [e.name for e in dee.events("ghost_progress")] == ["Annika", "Cidney", "Bobby"]
        dee.advance_to(started.start_at_ms + STEP_MS)
        reply = await dee.call(MakeMove, move=LINE[0], move_id="d1", expected_version=0)
        assert reply.type == "move_ok", reply
        assert (await dee.call(Resign)).type == "ok"
        await dee.wait_event("race_over")
        await challenge_runs.add_runs(services, joined.code)
        ranked = await standings(eve, code)
        assert [r.name for r in ranked.runs] == ["Annika", "Cidney", "Bobby", "Deirdre"]
        assert (ranked.total_runs, ranked.practice_runs) == (4, 0)
        assert [r.guest for r in ranked.runs] == [False] * 4
        assert [r.original for r in ranked.runs] == [True, False, True, False]
        await cid.call(Leave)
        await challenge_runs.add_runs(services, await run_once(cid, code, LINE[:4]))
        ann = race.racers[0].client
        await ann.call(Leave)
        await challenge_runs.add_runs(services, await run_once(ann, code, LINE[:4]))
        await challenge_runs.add_runs(services, await run_once(eve, code, LINE[:4]))
        after = await standings(await open_(), code)
    assert (after.total_runs, after.practice_runs) == (4, 3)
    assert after.runs == ranked.runs


async def test_an_account_that_watched_the_original_race_does_not_rank(
    race_server: RaceServer, clock: ManualClock
) -> None:
    pin_secrets(race_server, SEED)
    services = race_server.services
    async with opened_clients(Client.open, race_server) as open_:
        signed_in = signing_in(open_, ["Wanda", "Xavier"])
        wanda = await signed_in()
        race, _ = await finished_race(open_, clock, watcher=wanda)
        code = (await race.racers[0].client.call(CreateChallenge)).challenge.code
        await wanda.call(Leave)
        await challenge_runs.add_runs(services, await run_once(wanda, code, LINE[:4]))
        xavier = await signed_in()
        await challenge_runs.add_runs(services, await run_once(xavier, code, LINE[:1]))
        board = await standings(await open_(), code)
    assert [run.name for run in board.runs] == ["Ann", "Bob", "Xavier"]
    assert board.practice_runs == 1
