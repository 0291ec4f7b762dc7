"""One house seat against a real server: it rides out a server restart mid-race,
and what it receives is exactly what a player in its seat may see."""

from __future__ import annotations

import asyncio

import pytest

import engine
from bots.house.control import Drive
from bots.house.link import Link, Sleep, open_link
from bots.house.seat import HouseSeat
from bots.levels import Level
from protocol import (
    BoardShown,
    BoardView,
    EventFrame,
    Joined,
    JoinRoom,
    MoveOk,
    RaceOver,
    RaceStarted,
    Ready,
    Resign,
    Resumed,
    ServerMessage,
    Snapshot,
)
from server.app import RaceServer
from server.clock import ManualClock
from tests.bots.house._house import TIMEOUT_S, House, Pacer, fast_config, room_with_a_bot_seat
from tests.conftest import OpenStore
from tests.server._client import Client, count_down


async def test_a_seat_resumes_after_the_server_restarts_mid_race(
    house: House, race_server: RaceServer, open_store: OpenStore, clock: ManualClock
) -> None:
    port = race_server.port
    url = f"ws://127.0.0.1:{port}"
    host, seat, name, token = await room_with_a_bot_seat(url, clock)
    bot = int(name.split(":")[1])
    again = RaceServer(fast_config(port), await open_store(), clock)
    try:
        house.drive(name, token)
        await host.wait_event("ready", lambda event: event.seat == bot and event.ready)
        house.pacer.open.clear()
        assert (await host.call(Ready, ready=True)).type == "ok"
        await count_down(host)
        assert (await host.call(Resign)).type == "ok"
        await race_server.stop()
        await again.start()
        house.pacer.open.set()
        await house.wait_for("driving", start=2)
        over = await _results(url, name.split(":")[0], clock)
    finally:
        await host.close()
        await seat.close()
        await again.stop()
    mine = next(result for result in over.ranking if result.seat == bot)
    assert mine.moves > 0 and mine.outcome == "won"
    assert [line["op"] for line in house.said] == ["up", "driving", "driving"]


async def _results(url: str, code: str, clock: ManualClock) -> RaceOver:
    """The room's race results, seen by a spectator who comes in now."""
    watcher = await Client.open(url, clock)
    try:
        joined = await watcher.call(JoinRoom, code=code, name="watcher", role="spectator")
        if joined.results is not None:
            return joined.results  # type: ignore[no-any-return]
        return await watcher.wait_event("race_over", timeout=TIMEOUT_S)  # type: ignore[no-any-return]
    finally:
        await watcher.close()


class RecordingLink(Link):
    """A link that keeps every message it hands the seat."""

    def __init__(self, link: Link, got: list[ServerMessage]) -> None:
        super().__init__(link.socket)
        self.got = got

    async def recv(self) -> ServerMessage:
        message = await super().recv()
        self.got.append(message)
        return message


@pytest.mark.parametrize("level", ["good", pytest.param("strong", marks=pytest.mark.slow)])
async def test_a_seat_receives_only_what_its_player_may_see(
    level: Level, server_url: str, clock: ManualClock
) -> None:
    """Every board the bot is given is its own game's player view at that
    version (face-down cards as counts only), it is shown no other player's
    board, and the seed stays hidden until the race is over."""
    host, seat, name, token = await room_with_a_bot_seat(server_url, clock, level)
    number = int(name.split(":")[1])
    got: list[ServerMessage] = []

    async def connect(url: str, first_delay_s: float, sleep: Sleep) -> Link | None:
        link = await open_link(url, first_delay_s, sleep)
        return None if link is None else RecordingLink(link, got)

    drive = Drive(name, token, level, seed=1)
    bot = HouseSeat(server_url, drive, lambda _: None, sleep=Pacer().sleep, connect=connect)
    playing = asyncio.create_task(bot.run())
    try:
        await host.wait_event("ready", lambda event: event.seat == number and event.ready)
        assert (await host.call(Ready, ready=True)).type == "ok"
        await count_down(host)
        assert (await host.call(Resign)).type == "ok"
        over: RaceOver = await host.wait_event("race_over", timeout=SEARCHING_S)
        async with asyncio.timeout(TIMEOUT_S):
            while bot.follower.results is None:
                bot.news.clear()
                await bot.news.wait()
    finally:
        playing.cancel()
        await host.close()
        await seat.close()
    mine = next(result for result in over.ranking if result.seat == number)
    views = _player_views("little-milligan", 2, [entry.move for entry in mine.log])
    before_the_end = got[: next(i for i, m in enumerate(got) if _is_race_over(m))]
    boards = [board for message in before_the_end for board in _boards(message)]
    assert len(boards) > len(mine.log), "a board for the start and one per move"
    for version, board in boards:
        assert board == views[version]
    assert not any(_is_event(message, BoardShown) for message in got)
    rooms = [m.room for m in before_the_end if isinstance(m, Snapshot | Joined)]
    assert rooms and all(room.seed is None for room in rooms)


SEARCHING_S = 300.0
"""The strong bot searches as it plays: some seconds of CPU for the race."""


def _player_views(variant: str, deal: int, moves: list[str]) -> list[BoardView]:
    """The player's view of the real game after each number of moves."""
    game = engine.new_game(variant, b"deal:%d" % deal)
    views = [BoardView.from_engine(engine.view(game))]
    for move in moves:
        game = engine.apply(game, engine.Move.parse(move))
        views.append(BoardView.from_engine(engine.view(game)))
    return views


def _boards(message: ServerMessage) -> list[tuple[int, BoardView]]:
    """The boards of the bot's own game in ``message``, with their versions."""
    if isinstance(message, MoveOk | Snapshot | Resumed) and message.version is not None:
        return [] if message.board is None else [(message.version, message.board)]
    if isinstance(message, EventFrame) and isinstance(message.event, RaceStarted):
        return [(0, message.event.board)]
    return []


def _is_event(message: ServerMessage, kind: type[object]) -> bool:
    return isinstance(message, EventFrame) and isinstance(message.event, kind)


def _is_race_over(message: ServerMessage) -> bool:
    return _is_event(message, RaceOver)
