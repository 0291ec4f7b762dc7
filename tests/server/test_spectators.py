"""Spectators: every player's progress at once, every board after the room's delay, no say.

Boards are checked against the true games: each shown board must be the view
of its player's game at the version it names, replayed from the moves sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from protocol import (
    ErrorCode,
    EventFrame,
    MakeMove,
    Ping,
    Ready,
    RequestRematch,
    Resign,
    SetSettings,
    Settings,
    decode_server,
)
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.server._client import Client
from tests.server._players import (
    Connect,
    Race,
    Racer,
    add_watcher,
    board_of,
    conceals,
    greedy_line,
    open_race,
    race_events,
    race_over,
    serve,
    start,
    states_of,
    worst_line,
)

VARIANT, NUMBER = "little-milligan", 13
SEED = b"deal:%d" % NUMBER


@pytest.fixture
async def race_server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    async with serve(store, clock) as server:
        yield server


def timed_events(client: Client, kind: str) -> list[tuple[int, Any]]:
    """(arrival ms, event body) of every `kind` event the client got, in order."""
    found = []
    for frame, arrived_ms in zip(client.frames, client.arrived_ms, strict=True):
        message = decode_server(frame)
        if isinstance(message, EventFrame) and message.event.type == kind:
            found.append((arrived_ms, message.event))
    return found


def settings(delay_s: int) -> Settings:
    return Settings(countdown_s=1, deal_number=NUMBER, spectator_delay_s=delay_s)


def check_board(racer: Racer, shown: Any) -> None:
    """A shown board is its player's true board at the version it names, up to the
    cards hidden because some player still racing had not seen them yet."""
    assert shown.seat == racer.seat
    moves = [sent.move for sent in racer.sent[: shown.version]]
    assert conceals(shown.board, board_of(states_of(VARIANT, SEED, moves)[-1]))
    expected_at = racer.sent[shown.version - 1].at_ms if shown.version else 0
    assert shown.at_ms == expected_at


async def delivered(racer: Racer) -> None:
    """The racer's last move reached the room: its board's delay runs from now."""
    await racer.client.wait_event(
        "progress", lambda e: e.seat == racer.seat and e.moves == racer.version
    )


async def last_board(watcher: Client, racer: Racer) -> Any:
    return await watcher.wait_event(
        "board", lambda e: e.seat == racer.seat and e.version == racer.version
    )


async def true_last_board(watcher: Client, racer: Racer) -> Any:
    """The racer's last board with nothing hidden, as spectators get it once the race is over."""
    true = board_of(states_of(VARIANT, SEED, [sent.move for sent in racer.sent])[-1])
    return await watcher.wait_event(
        "board", lambda e: e.seat == racer.seat and e.version == racer.version and e.board == true
    )


async def test_spectators_see_progress_and_boards_as_they_happen(connect: Connect) -> None:
    race = await open_race(connect, VARIANT, ["Ann", "Bob", "Cy"], settings(0), watchers=2)
    await start(race)
    ann, bob, cy = race.racers
    win, lose = greedy_line(VARIANT, SEED), worst_line(VARIANT, SEED)
    await asyncio.gather(ann.play_all(win), bob.play_all(lose), cy.play_all(win[:9]))
    await cy.resign()
    await race_over(race)
    for watcher in race.watchers:
        for racer in race.racers:
            progress = [
                (e.progress, e.moves, e.outcome)
                for e in race_events(watcher, 1, "progress")
                if e.seat == racer.seat
            ]
            expected = [(s.progress, n, s.board.outcome) for n, s in enumerate(racer.sent, 1)]
            assert progress == expected
            await true_last_board(watcher, racer)
            shown = [e for e in watcher.events("board") if e.seat == racer.seat]
            assert [e.version for e in shown] == sorted(e.version for e in shown)
            for board in shown:
                check_board(racer, board)
    for racer in race.racers:
        assert not racer.client.events("board")


async def test_a_move_before_the_boards_are_set_up_is_still_shown(
    connect: Connect, race_server: RaceServer
) -> None:
    """The hub sets a race's spectator boards up once it has reloaded the room after
    the start; a move whose event comes first waits for them instead of being lost."""
    race = await open_race(connect, VARIANT, ["Ann"], settings(0), watchers=1)
    await start(race)
    (ann,) = race.racers
    hub = race_server.hub
    await asyncio.gather(*hub.tasks)  # the reload after the start, which set the boards up
    # As if the reload of the room after the start had not finished yet:
    hub.spectate.pop(race.code).close()
    hub.changed[race.code] = hub.armed.get(race.code, 0) + 1
    line = greedy_line(VARIANT, SEED)
    await ann.play_all(line[:1])
    shown = await race.watchers[0].wait_event("board", lambda e: e.seat == ann.seat)
    assert shown.version == 1
    check_board(ann, shown)


async def test_boards_wait_for_the_spectator_delay(connect: Connect) -> None:
    race = await open_race(connect, VARIANT, ["Ann", "Bob"], settings(1))
    await start(race)
    ann, bob = race.racers
    watcher = race.watchers[0]
    line = greedy_line(VARIANT, SEED)
    await ann.play_all(line[:4])
    await delivered(ann)
    race.advance_to(ann.sent[-1].at_ms + 300)
    await asyncio.gather(ann.play_all(line[4:8]), bob.play_all(line[:3]))
    await asyncio.gather(delivered(ann), delivered(bob))
    assert (await watcher.call(Ping)).type == "pong"
    assert not watcher.events("board")
    race.advance_to(ann.sent[-1].at_ms + 999)
    await watcher.wait_event("board", lambda e: e.seat == ann.seat and e.version == 4)
    assert [(e.seat, e.version) for e in watcher.events("board")] == [(ann.seat, 4)]
    race.advance_to(ann.sent[-1].at_ms + 1000)
    for racer in race.racers:
        await last_board(watcher, racer)
    progress_seen = {(e.seat, e.moves): ms for ms, e in timed_events(watcher, "progress")}
    boards = timed_events(watcher, "board")
    assert {e.seat for _, e in boards} == {ann.seat, bob.seat}
    for arrived_ms, shown in boards:
        check_board(race.racers[shown.seat], shown)
        assert arrived_ms >= shown.at_ms + 1000
        assert progress_seen[shown.seat, shown.version] < arrived_ms


async def test_spectator_joining_mid_race_sees_the_boards_of_delay_ago(
    connect: Connect,
) -> None:
    race = await open_race(connect, VARIANT, ["Ann", "Bob"], settings(2), watchers=0)
    await start(race)
    ann, bob = race.racers
    line = greedy_line(VARIANT, SEED)
    await ann.play_all(line[:5])
    race.advance_to(ann.sent[-1].at_ms + 2300)
    await ann.play_all(line[5:8])
    await delivered(ann)
    late = await add_watcher(race, connect)
    first = {r.seat: await late.wait_event("board", seat_is(r.seat)) for r in race.racers}
    assert (first[ann.seat].version, first[bob.seat].version) == (5, 0)
    for shown in first.values():
        check_board(race.racers[shown.seat], shown)
    race.advance_to(ann.sent[-1].at_ms + 2000)
    shown = await last_board(late, ann)
    check_board(ann, shown)
    assert arrival(late, shown) >= shown.at_ms + 2000


def seat_is(seat: int) -> Callable[[Any], bool]:
    return lambda event: event.seat == seat


def arrival(client: Client, shown: Any) -> int:
    """When the client got the `board` event `shown`."""
    return next(ms for ms, event in timed_events(client, "board") if event == shown)


async def refused(client: Client, kind: type[Any], code: ErrorCode, **fields: Any) -> None:
    reply = await client.call(kind, **fields)
    assert (reply.type, reply.code) == ("error", code), reply


async def spectator_is_refused(watcher: Client) -> None:
    """Every request that would act in the race is refused, whatever the phase."""
    move = {"move": "deal", "move_id": "w1", "expected_version": 0}
    await refused(watcher, MakeMove, ErrorCode.MOVE_SPECTATOR, **move)
    await refused(watcher, Resign, ErrorCode.MOVE_SPECTATOR)
    await refused(watcher, Ready, ErrorCode.ROOM_NOT_MEMBER, ready=True)
    await refused(
        watcher, SetSettings, ErrorCode.ROOM_NOT_MEMBER, variant=VARIANT, settings=Settings()
    )
    await refused(watcher, RequestRematch, ErrorCode.ROOM_NOT_MEMBER)


async def test_spectators_cannot_move_ready_or_change_settings(connect: Connect) -> None:
    race: Race = await open_race(connect, VARIANT, ["Ann"], settings(0))
    watcher = race.watchers[0]
    await spectator_is_refused(watcher)
    await start(race)
    await spectator_is_refused(watcher)
    (ann,) = race.racers
    await ann.play("deal")
    await ann.resign()
    over = await race_over(race)
    await spectator_is_refused(watcher)
    assert [r.seat for r in over.ranking] == [ann.seat]
    assert over.ranking[0].log == ann.log()
    assert not watcher.events("settings") and len(watcher.events("ready")) == 1
