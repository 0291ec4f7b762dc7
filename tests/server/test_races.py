"""Whole races over real sockets: join, ready, countdown, moves, finishes, ranking, reveal.

Every race ends with the same checks (`check_results`): the revealed seed matches
the commit of the countdown, each player's logged moves are exactly what they
sent, replaying each log on the revealed deal gives the progress and outcome
reported, and the ranking follows the rules from what the players saw.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from itertools import pairwise

import pytest

import engine
from protocol import (
    ErrorCode,
    JoinRoom,
    MakeMove,
    Ping,
    PlayerFinished,
    PlayerResult,
    RaceOver,
    RaceSummary,
    RequestRematch,
    Settings,
    SummaryLine,
    Sync,
)
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.conftest import OpenStore
from tests.server._client import Client
from tests.server._players import (
    Connect,
    Race,
    Racer,
    board_of,
    greedy_line,
    open_race,
    pin_secrets,
    race_events,
    race_over,
    secret_deal,
    serve,
    start,
    worst_line,
)
from tests.server.conftest import opened_clients


@pytest.fixture
async def race_server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    async with serve(store, clock) as server:
        yield server


def finishes(race: Race) -> dict[int, PlayerFinished]:
    """Each seat's ``player_finished`` of the current race, as the spectator saw it."""
    events = race_events(race.watchers[0], race.race_no, "player_finished")
    return {event.seat: event for event in events}


def expected_order(race: Race) -> list[int]:
    """Seats best first by the ranking rules, from what the players and spectator saw."""
    finished = finishes(race)

    def order(racer: Racer) -> tuple[int, int, int, int]:
        if finished[racer.seat].outcome == "won":
            return (0, finished[racer.seat].at_ms, 0, racer.seat)
        progress, at_ms = racer.standing()
        return (1, -progress, at_ms, racer.seat)

    return [racer.seat for racer in sorted(race.racers, key=order)]


def check_results(race: Race, over: RaceOver) -> None:
    """The checks every finished race must pass; see the module docstring."""
    assert race.countdown is not None and race.started is not None
    seed = bytes.fromhex(over.seed)
    assert hashlib.sha256(seed).hexdigest() == race.countdown.seed_commit == over.seed_commit
    if race.public_seed is not None:
        assert seed == race.public_seed
    assert over.start_at_ms == race.started.start_at_ms
    racers = {racer.seat: racer for racer in race.racers}
    assert sorted(result.seat for result in over.ranking) == sorted(racers)
    finished = finishes(race)
    for place, result in enumerate(over.ranking, 1):
        assert result.rank == place
        check_result(racers[result.seat], result, finished[result.seat], seed)
    assert [result.seat for result in over.ranking] == expected_order(race)
    reasons = [reason_below(above, below) for above, below in pairwise(over.ranking)]
    assert [result.decided_by for result in over.ranking] == [None, *reasons]


def reason_below(above: PlayerResult, below: PlayerResult) -> str:
    """What puts `below` under `above`, worked out from their lines as a client would."""
    if (above.outcome == "won") != (below.outcome == "won"):
        return "outcome"
    if below.outcome == "won" and above.finished_at_ms != below.finished_at_ms:
        return "finish_time"
    if below.outcome != "won" and above.progress != below.progress:
        return "progress"
    if below.outcome != "won" and above.progress_at_ms != below.progress_at_ms:
        return "progress_time"
    return "seat"


def check_result(racer: Racer, result: PlayerResult, finished: PlayerFinished, seed: bytes) -> None:
    """One line of the ranking against what its player sent and the revealed deal."""
    assert racer.start is not None
    assert (result.name, result.log, result.moves) == (racer.name, racer.log(), racer.version)
    state = engine.new_game(racer.start.board.variant, seed)
    for sent in racer.sent:
        state = engine.apply(state, engine.Move.parse(sent.move))
        assert sent.board == board_of(state)
    assert result.progress == engine.progress(state)
    assert (result.progress, result.progress_at_ms) == racer.standing()
    assert (result.outcome, result.finished_at_ms) == (finished.outcome, finished.at_ms)
    assert result.elapsed_ms == result.finished_at_ms - racer.start.start_at_ms
    if result.outcome in ("won", "stuck"):
        assert engine.outcome(state).value == result.outcome
        assert result.finished_at_ms == racer.sent[-1].at_ms


def progress_after(variant: str, seed: bytes, moves: list[str]) -> int:
    return engine.progress(engine.replay(variant, seed, moves))


async def quit_after(racer: Racer, moves: list[str]) -> None:
    await racer.play_all(moves)
    await racer.resign()


async def copy_later(racer: Racer, model: Racer, moves: list[str]) -> None:
    """Play the same moves once `model` is done, then resign: same cards, reached later."""
    await racer.client.wait_event("player_finished", lambda e: e.seat == model.seat)
    racer.client.advance_to(racer.client.clock.now_ms() + 5)
    await quit_after(racer, moves)


@pytest.mark.parametrize(("variant", "number"), [("little-forty", 21), ("little-milligan", 13)])
async def test_winners_rank_by_finish_time_then_the_rest_by_cards(
    connect: Connect, variant: str, number: int
) -> None:
    seed = b"deal:%d" % number
    win, lose = greedy_line(variant, seed), worst_line(variant, seed)
    quit_line = win[: len(win) // 4]
    assert engine.outcome(engine.replay(variant, seed, lose)) is engine.Outcome.STUCK
    assert progress_after(variant, seed, quit_line) > progress_after(variant, seed, lose)
    settings = Settings(countdown_s=1, deal_number=number)
    race = await open_race(connect, variant, ["Late", "Early", "Stuck", "Quits"], settings)
    await start(race)
    late, early, stuck, quits = race.racers

    async def finish_second() -> None:
        await late.play_all(win[:-1])
        await late.client.wait_event("player_finished", lambda e: e.seat == early.seat)
        late.client.advance_to(late.client.clock.now_ms() + 5)
        await late.play(win[-1])

    await asyncio.gather(
        finish_second(), early.play_all(win), stuck.play_all(lose), quit_after(quits, quit_line)
    )
    over = await race_over(race)
    check_results(race, over)
    assert [r.seat for r in over.ranking] == [early.seat, late.seat, quits.seat, stuck.seat]
    assert [r.outcome for r in over.ranking] == ["won", "won", "resigned", "stuck"]


@pytest.mark.parametrize(
    ("variant", "number"), [("little-billie", 134), ("double-canfield-40", 99)]
)
async def test_equal_cards_rank_by_when_they_were_reached(
    connect: Connect, variant: str, number: int
) -> None:
    seed = b"deal:%d" % number
    line = greedy_line(variant, seed)
    half = line[: len(line) // 2]
    assert engine.outcome(engine.replay(variant, seed, line)) is engine.Outcome.STUCK
    at_start = progress_after(variant, seed, [])
    assert at_start < progress_after(variant, seed, half) < progress_after(variant, seed, line)
    settings = Settings(countdown_s=1, deal_number=number)
    race = await open_race(connect, variant, ["Copy", "Stuck", "Quits"], settings)
    await start(race)
    copy, stuck, quits = race.racers
    await asyncio.gather(
        stuck.play_all(line), quit_after(quits, half), copy_later(copy, quits, half)
    )
    over = await race_over(race)
    check_results(race, over)
    assert [r.seat for r in over.ranking] == [stuck.seat, quits.seat, copy.seat]
    assert [r.outcome for r in over.ranking] == ["stuck", "resigned", "resigned"]
    second, third = over.ranking[1:]
    assert second.progress == third.progress
    assert second.progress_at_ms < third.progress_at_ms


async def play_and_resign(racer: Racer, limit: int) -> None:
    """Moves read off the board, then resign if the game has not ended by itself."""
    await racer.play_obvious(limit)
    if racer.playing:
        await racer.resign()


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
async def test_secret_deal_race_reveals_a_seed_that_replays(
    connect: Connect, race_server: RaceServer, variant: str
) -> None:
    secret = secret_deal(f"reveal, {variant}")
    assert len(greedy_line(variant, secret)) > 12
    pin_secrets(race_server, secret)
    race = await open_race(connect, variant, ["Ann", "Bob"], Settings(countdown_s=1))
    started = await start(race)
    assert race.countdown is not None
    assert started.start_at_ms == race.countdown.start_at_ms
    ann, bob = race.racers
    await asyncio.gather(play_and_resign(ann, 40), play_and_resign(bob, 12))
    over = await race_over(race)
    check_results(race, over)
    assert bytes.fromhex(over.seed) == secret


async def test_rematch_runs_a_second_race_with_a_new_deal(
    connect: Connect, race_server: RaceServer
) -> None:
    deals = secret_deal("rematch, first"), secret_deal("rematch, second")
    assert all(len(greedy_line("little-milligan", deal)) > 6 for deal in deals)
    pin_secrets(race_server, *deals)
    race = await open_race(connect, "little-milligan", ["Ann", "Bob"], Settings(countdown_s=1))
    await start(race)
    ann, bob = race.racers
    await asyncio.gather(play_and_resign(ann, 5), play_and_resign(bob, 3))
    first = await race_over(race)
    check_results(race, first)
    refused = await bob.client.call(RequestRematch)
    assert (refused.type, refused.code) == ("error", ErrorCode.ROOM_NOT_HOST)
    assert (await ann.client.call(RequestRematch)).type == "ok"
    for client in race.clients:
        assert (await client.wait_event("rematch")).race_no == 2
    race.race_no = 2
    assert race.countdown is not None
    first_commit = race.countdown.seed_commit
    await start(race)
    assert race.countdown.race_no == 2 and race.countdown.seed_commit != first_commit
    await asyncio.gather(play_and_resign(ann, 6), play_and_resign(bob, 4))
    second = await race_over(race)
    check_results(race, second)
    assert (bytes.fromhex(first.seed), bytes.fromhex(second.seed)) == deals
    assert all(e.move_id.startswith("r2-") for r in second.ranking for e in r.log)


async def test_who_comes_after_the_race_gets_its_results(
    connect: Connect, race_server: RaceServer
) -> None:
    """A spectator joining a finished room, and a racer asking for a snapshot, get the
    race's results as ``race_over`` gave them; after the rematch, none."""
    deal = secret_deal("results, late")
    assert len(greedy_line("little-milligan", deal)) > 6
    pin_secrets(race_server, deal)
    race = await open_race(connect, "little-milligan", ["Ann", "Bob"], Settings(countdown_s=1))
    await start(race)
    ann, bob = race.racers
    await asyncio.gather(play_and_resign(ann, 6), play_and_resign(bob, 2))
    over = await race_over(race)
    late = await connect()
    joined = await late.call(JoinRoom, code=race.code, name="Late", role="spectator")
    assert joined.room.phase == "finished" and joined.results == over
    assert (await bob.client.call(Sync)).results == over
    assert (await ann.client.call(RequestRematch)).type == "ok"
    await ann.client.wait_event("rematch")
    assert (await ann.client.call(Sync)).results is None


async def test_the_lobby_after_a_rematch_tells_the_race_before_even_after_a_restart(
    store: Store, open_store: OpenStore, clock: ManualClock
) -> None:
    settings = Settings(countdown_s=1, deal_number=7)
    async with serve(store, clock) as first, opened_clients(Client.open, first) as connect:
        race = await open_race(connect, "little-forty", ["Ann", "Bob"], settings)
        ann, bob = race.racers
        await start(race)
        await bob.play(greedy_line("little-forty", b"deal:7")[0])
        await ann.resign()
        await bob.resign()
        over = await race_over(race)
        assert (await ann.client.call(RequestRematch)).type == "ok"
        told = await race.watchers[0].wait_event("rematch")
        line = {"rank", "seat", "name", "outcome", "progress", "elapsed_ms"}
        assert told.last_race == RaceSummary(
            race_no=1,
            variant="little-forty",
            ranking=tuple(SummaryLine(**r.model_dump(include=line)) for r in over.ranking),
        )
        assert (await bob.client.call(Sync)).room.last_race == told.last_race
    async with (
        serve(await open_store(), clock) as second,
        opened_clients(Client.open, second) as connect,
    ):
        late = await connect()
        joined = await late.call(JoinRoom, code=race.code, name="Late", role="spectator")
    assert joined.room.phase == "lobby" and joined.room.race_no == 2
    assert joined.room.last_race == told.last_race


async def test_time_limit_times_out_everyone_still_playing(connect: Connect) -> None:
    variant, number = "double-canfield-40", 99
    settings = Settings(countdown_s=2, deal_number=number)
    race = await open_race(connect, variant, ["Busy", "Idle"], settings)
    busy, idle = race.racers
    started = await start(race)
    assert started.ends_at_ms - started.start_at_ms == settings.time_limit_s * 1000
    await busy.play_all(greedy_line(variant, b"deal:%d" % number)[:10])
    race.advance_to(started.ends_at_ms - 1)
    assert (await idle.client.call(Ping)).type == "pong"
    assert not idle.client.events("player_finished")
    race.advance_to(started.ends_at_ms)
    over = await race_over(race)
    check_results(race, over)
    assert [r.outcome for r in over.ranking] == ["timeout", "timeout"]
    assert {r.finished_at_ms for r in over.ranking} == {started.ends_at_ms}
    assert over.ended_at_ms >= started.ends_at_ms
    late = await idle.client.call(MakeMove, move="draw", move_id="late", expected_version=0)
    assert (late.type, late.code) == ("error", ErrorCode.MOVE_NOT_RACING)
