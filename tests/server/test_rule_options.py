"""A race in a room with a rule option: Little Billie's ``unlimited-redeals``,
over real sockets (a real server, embedded Valkey, manual clock)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

import engine
from engine.solver import Budget, solve
from protocol import CreateRoom, ErrorCode, JoinRoom, RoomSnapshot, SetSettings, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.server._players import Connect, open_race, race_over, serve, start

BILLIE, UNLIMITED = "little-billie", "unlimited-redeals"
SEED = b"deal:1"


@pytest.fixture
async def race_server(
    store: Store, clock: ManualClock, analysis_workers: int
) -> AsyncIterator[RaceServer]:
    async with serve(store, clock, analysis_workers=analysis_workers) as server:
        yield server


def first_moves_line(state: engine.GameState) -> list[str]:
    """The game played by its first legal move each time: deal 1 ends blocked
    after 12 redeals with 81 cards home (pinned in tests/engine)."""
    moves: list[str] = []
    while engine.outcome(state) is engine.Outcome.PLAYING:
        move = engine.legal_moves(state)[0]
        moves.append(move.format())
        state = engine.apply(state, move)
    return moves


@pytest.mark.solver_workers
async def test_a_race_under_unlimited_redeals_is_won_past_the_second_redeal(
    connect: Connect, race_server: RaceServer
) -> None:
    game = engine.new_game(BILLIE, SEED, UNLIMITED)
    won = solve(game, Budget(nodes=200_000))
    assert won.result == "won" and won.moves.count("redeal") > 2
    blocked = first_moves_line(game)
    settings = Settings(countdown_s=1, deal_number=1, rule_option=UNLIMITED)
    race = await open_race(connect, BILLIE, ["Ann", "Bob"], settings)
    started = await start(race)
    assert started.board.passes_left is None
    ann, bob = race.racers
    await asyncio.gather(ann.play_all(won.moves), bob.play_all(blocked))
    over = await race_over(race)
    assert [(r.name, r.outcome, r.progress) for r in over.ranking] == [
        ("Ann", "won", 104),
        ("Bob", "stuck", 81),
    ]
    for result in over.ranking:
        moves = [entry.move for entry in result.log]
        replayed = engine.replay(BILLIE, SEED, moves, UNLIMITED)
        assert engine.progress(replayed) == result.progress
    assert bob.game is not None and bob.game.passes == 12
    analysed = await race.watchers[0].wait_event("deal_analysed")
    assert (analysed.verdict.verdict, analysed.verdict.line_moves) == ("won", len(won.moves))
    with pytest.raises(engine.IllegalMove, match="all 2 redeals"):
        engine.replay(BILLIE, SEED, blocked)  # the standard rules stop at the third


async def test_the_lobby_shows_the_option_and_the_standard_rules_stay_the_default(
    connect: Connect, race_server: RaceServer
) -> None:
    race = await open_race(connect, BILLIE, ["Ann"], Settings(), watchers=0)
    host = race.racers[0].client
    assert Settings().rule_option == ""
    changed = Settings(rule_option=UNLIMITED)
    assert (await host.call(SetSettings, variant=BILLIE, settings=changed)).type == "ok"
    event = await host.wait_event("settings")
    assert event.settings.rule_option == UNLIMITED
    watcher = await connect()
    joined = await watcher.call(JoinRoom, code=race.code, name="Watcher", role="spectator")
    snapshot: RoomSnapshot = joined.room
    assert snapshot.settings.rule_option == UNLIMITED


@pytest.mark.parametrize("variant", ["little-forty", "little-milligan", "double-canfield-40"])
async def test_a_game_without_the_option_refuses_it(connect: Connect, variant: str) -> None:
    host = await connect()
    settings = Settings(rule_option=UNLIMITED)
    refused = await host.call(CreateRoom, variant=variant, name="Ann", settings=settings)
    assert (refused.type, refused.code) == ("error", ErrorCode.ROOM_BAD_SETTINGS)
    assert "no rule option" in refused.message
