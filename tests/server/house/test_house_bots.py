"""House bots against a real server and its real (quick) bot process: seated by the
host, raced to the results, kept when the host's client leaves, freed, limited,
and played again after their bot process dies."""

from __future__ import annotations

import asyncio
import os
import signal

from protocol import (
    AddBot,
    CreateRoom,
    EndRace,
    JoinRoom,
    Leave,
    Ready,
    RemoveBot,
    Resign,
    Resume,
    Settings,
    Sync,
)
from server.clock import ManualClock
from tests.conftest import OpenStore
from tests.server._client import Client, count_down
from tests.server.house._house import TIMEOUT_S, client, house_server

SETTINGS = Settings(deal_number=11, countdown_s=3)


async def _room(host: Client) -> str:
    created = await host.call(CreateRoom, variant="little-forty", name="Ann", settings=SETTINGS)
    return str(created.code)


async def _bot_ready(host: Client, seat: int) -> None:
    await host.wait_event("ready", lambda event: event.seat == seat and event.ready)


async def test_a_house_bot_is_seated_by_the_host_and_races_to_the_results(
    open_store: OpenStore, clock: ManualClock
) -> None:
    server = await house_server(await open_store(), clock)
    host = await client(server)
    try:
        await _room(host)
        assert (await host.call(AddBot, level="casual")).type == "ok"
        joined = await host.wait_event("player_joined", lambda event: event.seat == 1)
        assert (joined.name, joined.bot, joined.house, joined.level) == (
            "Casual bot",
            True,
            True,
            "casual",
        )
        await _bot_ready(host, 1)
        assert (await host.call(Ready, ready=True)).type == "ok"
        await count_down(host)
        await host.wait_event("progress", lambda event: event.seat == 1 and event.moves >= 5)
        assert (await host.call(Resign)).type == "ok"
        assert (await host.call(EndRace)).type == "ok"
        over = await host.wait_event("race_over")
        bot = next(result for result in over.ranking if result.seat == 1)
        assert bot.moves >= 5
    finally:
        await host.close()
        await server.stop()


async def test_house_bots_stay_when_the_host_leaves_and_go_with_the_last_person(
    open_store: OpenStore, clock: ManualClock
) -> None:
    server = await house_server(await open_store(), clock)
    ann, bob = await client(server), await client(server)
    try:
        code = await _room(ann)
        await bob.call(JoinRoom, code=code, name="Bob")
        assert (await ann.call(AddBot, level="good", name="Robo")).type == "ok"
        await _bot_ready(bob, 2)
        await ann.close()
        handed = await bob.wait_event("host_changed")
        assert handed.seat == 1, "the host role goes to a person, never to a house bot"
        assert (await bob.call(Sync)).room.players[-1].name == "Robo"
        assert (await bob.call(Leave)).type == "ok"
        async with asyncio.timeout(TIMEOUT_S):
            while server.services.house is not None and server.services.house.seats:
                await asyncio.sleep(0.01)
    finally:
        await bob.close()
        await server.stop()


async def test_the_host_removes_a_house_bot_and_nothing_else(
    open_store: OpenStore, clock: ManualClock
) -> None:
    server = await house_server(await open_store(), clock, house_bots_per_room=1)
    ann, bob = await client(server), await client(server)
    try:
        code = await _room(ann)
        await bob.call(JoinRoom, code=code, name="Bob")
        assert (await bob.call(AddBot)).code == "room/not-host"
        assert (await ann.call(AddBot)).type == "ok"
        assert (await ann.call(AddBot)).code == "room/bot-limit"
        assert (await ann.call(RemoveBot, seat=1)).code == "room/not-a-bot"
        assert (await ann.call(RemoveBot, seat=2)).type == "ok"
        left = await bob.wait_event("player_left", lambda event: event.seat == 2)
        assert not left.away
        assert [p.name for p in (await bob.call(Sync)).room.players] == ["Ann", "Bob"]
    finally:
        for person in (ann, bob):
            await person.close()
        await server.stop()


async def test_a_server_without_house_bots_says_so(
    open_store: OpenStore, clock: ManualClock
) -> None:
    server = await house_server(await open_store(), clock, bot_workers=0)
    host = await client(server)
    try:
        await _room(host)
        refused = await host.call(AddBot)
        assert refused.code == "server/no-house-bots" and "solrace bot" in refused.message
    finally:
        await host.close()
        await server.stop()


async def test_a_killed_bot_process_is_started_again_and_plays_its_seats_again(
    open_store: OpenStore, clock: ManualClock
) -> None:
    server = await house_server(await open_store(), clock)
    house = server.services.house
    assert house is not None
    worker = house.workers[0]
    worker.first_backoff_s = 0.0
    host = await client(server)
    try:
        await _room(host)
        await host.call(AddBot)
        await _bot_ready(host, 1)
        assert worker.process is not None
        os.kill(worker.process.pid, signal.SIGKILL)
        async with asyncio.timeout(TIMEOUT_S):
            while worker.starts < 2 or not worker.up:
                await asyncio.sleep(0.01)
        room = (await host.call(Sync)).room
        assert [(p.name, p.ready) for p in room.players] == [("Ann", False), ("Good bot", True)]
        assert (await host.call(Ready, ready=True)).type == "ok"
        await count_down(host)
        await host.wait_event("progress", lambda event: event.seat == 1)
        assert (await host.call(Resign)).type == "ok"
        assert (await host.call(EndRace)).type == "ok"
        over = await host.wait_event("race_over")
        assert next(result for result in over.ranking if result.seat == 1).moves > 0
    finally:
        await host.close()
        await server.stop()


async def test_the_house_bots_of_a_server_gone_are_played_by_the_one_that_sweeps(
    open_store: OpenStore, clock: ManualClock
) -> None:
    gone, staying = [await house_server(await open_store(), clock) for _ in range(2)]
    ann = await client(gone)
    try:
        created = await ann.call(CreateRoom, variant="little-forty", name="Ann", settings=SETTINGS)
        await ann.call(AddBot, level="good")
        await _bot_ready(ann, 1)
        await gone.stop()
        await ann.close()
        ann = await client(staying)
        assert (await ann.call(Resume, token=created.token, last_seq=0)).type in {
            "resumed",
            "snapshot",
        }
        house = staying.services.house
        assert house is not None and house.seats == 0
        for _ in range(2):
            clock.advance(round(staying.config.presence_sweep_s * 1000))
            async with asyncio.timeout(TIMEOUT_S):
                await staying.sweep.swept_since(clock.now_ms())
        assert house.seats == 1, "the staying server's bot process plays the bot now"
        assert (await ann.call(Ready, ready=True)).type == "ok"
        await count_down(ann)
        await ann.wait_event("progress", lambda event: event.seat == 1)
    finally:
        await ann.close()
        await staying.stop()
