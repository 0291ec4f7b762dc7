"""Dead-end notices: pushed to the racer alone, once per position, only when proven.

Little Milligan deal 4 starts with a card that can go home; three deals
from the stock bury it, and no sequence of moves can then put a card home
(the engine's own search says so below). The server's clock is advanced past
``dead_end_after_s``; the check itself runs in a real solver worker, so the
test waits for its answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

import engine
from engine.solver import Budget
from engine.solver.dead_end import reach_home
from protocol import DeadEnd, JoinRoom, MakeMove, Ping, Ready, RequestRematch, Resign, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.server._client import Client, start_race
from tests.server.conftest import ServerFactory

pytestmark = pytest.mark.solver_workers

Connect = Callable[[], Awaitable[Client]]
VARIANT, DEAL = "little-milligan", 4
SETTINGS = Settings(countdown_s=1, deal_number=DEAL)
BURYING = ["deal", "deal", "deal"]
HOME_THEN_BURIED = ["t6:1 f1", "deal", "deal", "deal", "t2:1 t6"]
AFTER_MS = 30_000
"""The default ``dead_end_after_s``."""


def _checks(server: RaceServer, answer: str) -> float:
    registry = server.services.metrics.registry
    return registry.get_sample_value("solrace_dead_end_checks_total", {"answer": answer}) or 0.0


async def _answered(server: RaceServer, answer: str, count: int) -> None:
    """Wait (for the solver worker) until ``count`` checks have given ``answer``."""
    async with asyncio.timeout(20):
        while _checks(server, answer) < count:
            await asyncio.sleep(0.01)


async def _play(client: Client, moves: list[str], version: int = 0) -> int:
    for text in moves:
        reply = await client.call(
            MakeMove, move=text, move_id=f"m{version}", expected_version=version
        )
        assert reply.type == "move_ok", reply
        version = reply.version
    return version


async def _nothing_pushed(client: Client, kind: str) -> bool:
    await client.call(Ping)
    return all(message.type != kind for message in client.pushed)


@pytest.mark.parametrize(("line", "home"), [(BURYING, 0), (HOME_THEN_BURIED, 1)])
def test_the_pinned_moves_reach_a_dead_end_that_is_not_stuck(line: list[str], home: int) -> None:
    state = engine.replay(VARIANT, b"deal:%d" % DEAL, line)
    assert engine.outcome(state) == engine.Outcome.PLAYING
    assert engine.progress(state) == home
    assert reach_home(state, Budget(nodes=10_000)).answer == "cannot"
    start = engine.new_game(VARIANT, b"deal:%d" % DEAL)
    assert reach_home(start, Budget(nodes=10_000)).answer == "can"


async def test_a_racer_in_a_dead_end_alone_is_told_once(
    connect: Connect, race_server: RaceServer, clock: ManualClock
) -> None:
    ann, bob, watcher = await connect(), await connect(), await connect()
    joined = await start_race([ann, bob], VARIANT, SETTINGS)
    watching = await watcher.call(JoinRoom, code=joined[0].code, name="W", role="spectator")
    assert watching.type == "joined", watching
    version = await _play(ann, BURYING)
    clock.advance(AFTER_MS)
    notice = await ann.wait_pushed("dead_end")
    assert isinstance(notice, DeadEnd)
    assert (notice.version, notice.at_ms) == (version, clock.now_ms())
    await _answered(race_server, "can", 1)
    assert _checks(race_server, "cannot") == 1
    assert await _nothing_pushed(bob, "dead_end")
    assert await _nothing_pushed(watcher, "dead_end")
    assert all(event.type != "dead_end" for event in bob.events() + watcher.events())
    clock.advance(3 * AFTER_MS)
    assert await _nothing_pushed(ann, "dead_end") is False
    assert [m.type for m in ann.pushed].count("dead_end") == 1
    assert _checks(race_server, "cannot") + _checks(race_server, "can") == 2


async def test_a_card_home_restarts_the_wait(
    connect: Connect, race_server: RaceServer, clock: ManualClock
) -> None:
    """A card goes home twenty seconds in, and the line ends in a dead end: the
    check starts thirty seconds after that card, not after the start."""
    ann = await connect()
    await start_race([ann], VARIANT, SETTINGS)
    started_ms = clock.now_ms()
    (session,) = race_server.sessions
    clock.advance(20_000)
    version = await _play(ann, HOME_THEN_BURIED)
    clock.advance(AFTER_MS - 1)
    assert session.place.dead_end.task is None
    clock.advance(1)
    assert session.place.dead_end.task is not None
    notice = await ann.wait_pushed("dead_end")
    assert (notice.version, notice.at_ms) == (version, started_ms + 20_000 + AFTER_MS)


async def test_a_racer_with_a_way_home_is_told_nothing(
    connect: Connect, race_server: RaceServer, clock: ManualClock
) -> None:
    ann = await connect()
    await start_race([ann], VARIANT, SETTINGS)
    clock.advance(AFTER_MS)
    await _answered(race_server, "can", 1)
    assert await _nothing_pushed(ann, "dead_end")


async def test_the_same_position_in_the_next_race_is_checked_again(
    connect: Connect, race_server: RaceServer, clock: ManualClock
) -> None:
    ann = await connect()
    await start_race([ann], VARIANT, SETTINGS)
    await _play(ann, BURYING)
    clock.advance(AFTER_MS)
    await ann.wait_pushed("dead_end")
    assert (await ann.call(Resign)).type == "ok"
    await ann.wait_event("race_over")
    assert (await ann.call(RequestRematch)).type == "ok"
    assert (await ann.call(Ready, ready=True)).type == "ok"
    countdown = await ann.wait_event("countdown", lambda event: event.race_no == 2)
    clock.advance_to(countdown.start_at_ms)
    await ann.wait_event("race_started", lambda event: event.race_no == 2)
    await _play(ann, BURYING)
    clock.advance(AFTER_MS)
    await _answered(race_server, "cannot", 2)
    await ann.call(Ping)
    assert [m.type for m in ann.pushed].count("dead_end") == 2


async def test_no_solver_workers_means_no_checks(
    store: Store, start_server: ServerFactory, clock: ManualClock
) -> None:
    server = await start_server(store, analysis_workers=0)
    ann = await Client.open(f"ws://127.0.0.1:{server.port}", clock)
    try:
        await start_race([ann], VARIANT, SETTINGS)
        await _play(ann, BURYING)
        clock.advance(3 * AFTER_MS)
        assert await _nothing_pushed(ann, "dead_end")
        assert all(_checks(server, answer) == 0 for answer in ("can", "cannot", "busy"))
    finally:
        await ann.close()
