"""The bot process against a real server: it takes over a bot seat from its
token, says ready, races to the results and again after a rematch, lets a
dropped seat go, and says a seat is gone when its resume is refused."""

from __future__ import annotations

import asyncio

from protocol import Leave, Ready, RequestRematch, Resign
from server.clock import ManualClock
from tests.bots.house._house import RSS, TIMEOUT_S, House, room_with_a_bot_seat
from tests.server._client import Client, count_down


async def test_a_house_bot_races_to_the_results_and_again_after_a_rematch(
    house: House, server_url: str, clock: ManualClock
) -> None:
    host, seat, name, token = await room_with_a_bot_seat(server_url, clock)
    bot = int(name.split(":")[1])
    try:
        house.drive(name, token)
        assert await house.wait_for("driving") == {"op": "driving", "seat": name}
        assert await seat.closed() == 4002, "the bot's connection took the seat over"
        await host.wait_event("ready", lambda event: event.seat == bot and event.ready)
        assert (await host.call(Ready, ready=True)).type == "ok"
        await count_down(host)
        assert (await host.call(Resign)).type == "ok"
        over = await host.wait_event("race_over")
        mine = next(result for result in over.ranking if result.seat == bot)
        assert mine.moves > 0 and mine.outcome in ("won", "resigned")

        assert (await host.call(RequestRematch)).type == "ok"
        await host.wait_event("rematch")
        await _readied(host, bot, times=2)
    finally:
        await host.close()
    assert [line["op"] for line in house.said] == ["up", "driving"]


async def _readied(host: Client, seat: int, times: int) -> None:
    """Wait until ``seat`` has said ready ``times`` times."""
    async with asyncio.timeout(TIMEOUT_S):
        while len([e for e in host.events("ready") if e.seat == seat and e.ready]) < times:
            host.arrived.clear()
            await host.arrived.wait()


async def test_a_dropped_seat_is_closed_without_leaving_and_loads_are_reported(
    house: House, server_url: str, clock: ManualClock
) -> None:
    host, seat, name, token = await room_with_a_bot_seat(server_url, clock)
    try:
        house.drive(name, token)
        await house.wait_for("driving")
        house.tick()
        assert await house.wait_for("load") == {"op": "load", "bots": 1, "rss_bytes": RSS}
        house.send(op="drop", seat=name)
        left = await host.wait_event("player_left")
        assert left.seat == int(name.split(":")[1])
        house.tick()
        assert (await house.wait_for("load", start=3))["bots"] == 0
    finally:
        await host.close()
        await seat.close()
    assert "gone" not in [line["op"] for line in house.said]


async def test_a_refused_resume_makes_the_seat_gone(
    house: House, server_url: str, clock: ManualClock
) -> None:
    host, seat, name, token = await room_with_a_bot_seat(server_url, clock)
    try:
        assert (await seat.call(Leave)).type == "ok"
        house.drive(name, token)
        gone = await house.wait_for("gone")
        assert gone == {"op": "gone", "seat": name, "reason": "auth/bad-token"}
        house.drive("ABCDEF:1", "no-such-token-at-all")
        gone = await house.wait_for("gone", lambda line: line["seat"] == "ABCDEF:1")
        assert gone["reason"] == "auth/bad-token"
    finally:
        await host.close()
        await seat.close()
    assert house.process.seats == {}


async def test_lines_that_are_not_commands_are_refused_and_the_process_reads_on(
    house: House,
) -> None:
    house.send_line("not json")
    house.send(op="drive", seat="ABCDEF:1", token="t", level="grandmaster", seed=1)
    house.send(op="stop")
    await house.end()
    assert [line["op"] for line in house.said] == ["up"]
