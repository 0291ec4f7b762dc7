"""The idle limit and the host ending a race early, over the wire.

The idle limit: once a player has finished, a player who makes no move for
``idle_limit_s`` is warned ``IDLE_WARNING_S`` before, then timed out; a move
starts the wait again.
"""

from __future__ import annotations

import asyncio
from typing import Any

from protocol import EndRace, ErrorCode, HostEnd, JoinRoom, Settings, Sync
from protocol.limits import IDLE_WARNING_S
from server.app import RaceServer
from server.clock import ManualClock
from tests.server._players import (
    Connect,
    Race,
    add_watcher,
    greedy_line,
    open_race,
    race_over,
    start,
)

VARIANT, DEAL = "little-forty", 11
IDLE_S = 30
IDLE = Settings(countdown_s=1, deal_number=DEAL, idle_limit_s=IDLE_S)
POLL_MS = 1_000


async def _polled(server: RaceServer, when_ms: int) -> None:
    """Wait for a poll of the server's deadlines that began at `when_ms` or later."""
    async with asyncio.timeout(10):
        await server.poller.polled_since(when_ms)


async def _logged(server: RaceServer, code: str, kind: str) -> list[Any]:
    """Events of `kind` in the room's log, once the server has polled its deadlines now."""
    await _polled(server, server.clock.now_ms())
    stored = await server.store.events_since(code, 0)
    assert stored is not None
    return [body for _, body in stored if f"{kind}".encode() in body]


async def _tick(server: RaceServer, clock: ManualClock, when_ms: int) -> None:
    """Move the clock to `when_ms`, then a poll of the deadlines at that time."""
    clock.advance_to(when_ms)
    await _polled(server, when_ms)


async def _one_resigned(connect: Connect) -> tuple[Race, int]:
    """Done and Slow racing with an idle limit, Done resigned at once; the start."""
    race = await open_race(connect, VARIANT, ["Done", "Slow"], IDLE, watchers=0)
    began = (await start(race)).start_at_ms
    await race.racers[0].resign()
    return race, began


async def test_an_idle_player_is_warned_then_timed_out_and_a_move_restarts_the_wait(
    connect: Connect, race_server: RaceServer, clock: ManualClock
) -> None:
    race, began = await _one_resigned(connect)
    done, slow = race.racers
    warn_at = began + (IDLE_S - IDLE_WARNING_S) * 1000
    await _tick(race_server, clock, warn_at - 1)
    assert await _logged(race_server, race.code, "idle_warning") == []
    clock.advance_to(warn_at)
    warned = await slow.client.wait_event("idle_warning")
    assert (warned.seat, warned.timeout_at_ms) == (slow.seat, began + IDLE_S * 1000)
    assert await done.client.wait_event("idle_warning") == warned
    moved_at = began + 25_000
    clock.advance_to(moved_at)
    await slow.play(greedy_line(VARIANT, b"deal:%d" % DEAL)[0])
    await _tick(race_server, clock, warned.timeout_at_ms + POLL_MS)
    assert slow.client.events("player_finished") == [done.client.events("player_finished")[0]]
    second_at = moved_at + (IDLE_S - IDLE_WARNING_S) * 1000
    await _tick(race_server, clock, second_at)
    again = await slow.client.wait_event("idle_warning", lambda e: e != warned)
    assert again.timeout_at_ms == moved_at + IDLE_S * 1000
    await _tick(race_server, clock, again.timeout_at_ms + POLL_MS)
    over = await race_over(race)
    line = {r.seat: (r.outcome, r.finished_at_ms, r.moves) for r in over.ranking}
    assert line[slow.seat] == ("timeout", again.timeout_at_ms, 1)
    assert line[done.seat] == ("resigned", began, 0)


async def _late_view(race: Race, connect: Connect) -> dict[int, int | None]:
    """Each seat's standing idle warning, as a spectator arriving now is told it."""
    late = await connect()
    joined = await late.call(JoinRoom, code=race.code, name="Late", role="spectator")
    return {player.seat: player.idle_timeout_at_ms for player in joined.room.players}


async def test_a_late_arrival_is_told_of_a_warning_until_the_racer_moves(
    connect: Connect, race_server: RaceServer, clock: ManualClock
) -> None:
    race, began = await _one_resigned(connect)
    done, slow = race.racers
    assert await _late_view(race, connect) == {done.seat: None, slow.seat: None}
    clock.advance_to(began + (IDLE_S - IDLE_WARNING_S) * 1000)
    warned = await slow.client.wait_event("idle_warning")
    view = await _late_view(race, connect)
    assert view == {done.seat: None, slow.seat: warned.timeout_at_ms}
    await slow.play(greedy_line(VARIANT, b"deal:%d" % DEAL)[0])
    assert await _late_view(race, connect) == {done.seat: None, slow.seat: None}


async def test_nobody_idles_out_while_nobody_has_finished(
    connect: Connect, race_server: RaceServer, clock: ManualClock
) -> None:
    race = await open_race(connect, VARIANT, ["Ann", "Bob"], IDLE, watchers=0)
    began = (await start(race)).start_at_ms
    await _tick(race_server, clock, began + 3 * IDLE_S * 1000)
    assert await _logged(race_server, race.code, "idle_warning") == []
    assert await _logged(race_server, race.code, "player_finished") == []


async def test_without_an_idle_limit_nobody_is_warned(
    connect: Connect, race_server: RaceServer, clock: ManualClock
) -> None:
    settings = Settings(countdown_s=1, deal_number=DEAL)
    race = await open_race(connect, VARIANT, ["Ann", "Bob"], settings, watchers=0)
    began = (await start(race)).start_at_ms
    await race.racers[0].resign()
    await _tick(race_server, clock, began + 600_000)
    assert await _logged(race_server, race.code, "idle_warning") == []


async def test_the_host_ends_the_race_early_for_everyone_still_racing(
    connect: Connect, clock: ManualClock
) -> None:
    race = await open_race(connect, VARIANT, ["Host", "Quits", "Plays"], IDLE)
    host, quits, plays = race.racers
    began = (await start(race)).start_at_ms
    await plays.play(greedy_line(VARIANT, b"deal:%d" % DEAL)[0])
    await quits.resign()
    ended_at = began + 7_000
    clock.advance_to(ended_at)
    assert (await host.client.call(EndRace)).type == "ok"
    over = await race_over(race)
    line = {r.seat: (r.outcome, r.finished_at_ms) for r in over.ranking}
    assert line == {
        host.seat: ("timeout", ended_at),
        quits.seat: ("resigned", began),
        plays.seat: ("timeout", ended_at),
    }
    assert over.ended_at_ms == ended_at
    again = await host.client.call(EndRace)
    assert (again.type, again.code) == ("error", ErrorCode.ROOM_WRONG_PHASE)


async def test_everyone_is_told_the_host_ended_the_race(
    connect: Connect, clock: ManualClock
) -> None:
    """The players it stopped, the race's results, and whoever comes after the race."""
    race = await open_race(connect, VARIANT, ["Host", "Quits", "Plays"], IDLE)
    host, quits, plays = race.racers
    began = (await start(race)).start_at_ms
    await quits.resign()
    clock.advance_to(began + 7_000)
    assert (await host.client.call(EndRace)).type == "ok"
    over = await race_over(race)
    assert over.ended_by_host == HostEnd(seat=host.seat, elapsed_ms=7_000)
    watcher = race.watchers[0]
    finishes = {e.seat: e.ended_by for e in watcher.events("player_finished")}
    assert finishes == {quits.seat: None, host.seat: host.seat, plays.seat: host.seat}
    late = await connect()
    joined = await late.call(JoinRoom, code=race.code, name="Late", role="spectator")
    assert joined.results == over
    assert (await plays.client.call(Sync)).results == over


async def test_only_the_host_may_end_a_race_and_only_while_it_runs(connect: Connect) -> None:
    race = await open_race(connect, VARIANT, ["Host", "Guest"], IDLE, watchers=0)
    host, guest = race.racers
    early = await host.client.call(EndRace)
    assert (early.type, early.code) == ("error", ErrorCode.ROOM_WRONG_PHASE)
    watcher = await add_watcher(race, connect)
    await start(race)
    refused = await guest.client.call(EndRace)
    assert (refused.type, refused.code) == ("error", ErrorCode.ROOM_NOT_HOST)
    assert "host" in refused.message
    watched = await watcher.call(EndRace)
    assert (watched.type, watched.code) == ("error", ErrorCode.MOVE_SPECTATOR)
    assert guest.client.events("player_finished") == []
    await guest.play(greedy_line(VARIANT, b"deal:%d" % DEAL)[0])
