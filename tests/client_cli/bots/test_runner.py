"""Bots in real races: they take seats, say ready only when the room is full, race to the end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from client_cli.__main__ import run
from client_cli.args import parse_args
from client_cli.bots.runner import Bot, BotPlan, run_bot
from client_cli.bots.team import BotTeam
from client_cli.room.tracker import Tracker
from client_cli.session.session import Entry, Session
from protocol import (
    BoardView,
    CreateRoom,
    JoinRoom,
    PlayerInfo,
    RoomSnapshot,
    SetSettings,
    Settings,
)
from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.store import Store
from tests.client_cli._driver import Terminal, ready_and_go, start_when_counting_down

FAST_BOTS = 1000.0
LIMIT_S = 60


@pytest.fixture
async def race_server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    """A server that lets bots move as fast as the test likes, on the test's clock."""
    config = Config(port=0, rate_per_s=10_000, rate_burst=10_000)
    async with RaceServer(config, store, clock) as server:
        yield server


@pytest.fixture
async def ada(server_url: str) -> AsyncIterator[Terminal]:
    terminal = Terminal(server_url)
    yield terminal
    await terminal.close()


def _create(variant: str, players: int) -> Entry:
    settings = Settings(max_players=players, countdown_s=1, time_limit_s=60, deal_number=7)
    return lambda id_: CreateRoom(id=id_, variant=variant, name="Ada", settings=settings)


async def test_two_bots_and_a_person_race_to_the_results(
    ada: Terminal, server_url: str, clock: ManualClock
) -> None:
    ada.start(_create("little-forty", 3))
    await ada.wait_for("Share the code")
    code = ada.session.tracker.code
    assert code is not None
    said: list[list[str]] = [[], []]
    bots = [
        asyncio.create_task(run_bot(server_url, _join(code, name), plan, out.append))
        for name, plan, out in (
            ("Robo", BotPlan("Robo", speed=FAST_BOTS), said[0]),
            ("Rand", BotPlan("Rand", "random", FAST_BOTS, seed=3), said[1]),
        )
    ]
    await ada.wait_for("Robo is ready.")
    await ada.wait_for("Rand is ready.")
    assert ada.text.rindex(" joined as #") < ada.text.index("is ready")
    await ready_and_go(clock, ada)
    await ada.type("draw", expect="waste 3, top")
    await ada.type("resign", expect="You resigned after")
    async with asyncio.timeout(LIMIT_S):
        assert await asyncio.gather(*bots) == [0, 0]
    over = await ada.wait_for("Replayed Rand's")
    assert "Robo" in over and "WARNING" not in ada.text
    for lines in said:
        text = "\n".join(lines)
        assert text.startswith("Race 1 results:") and "matches the commit" in text
        assert "Replayed Ada's 1 move: 0 cards home, agrees." in text


async def test_a_bot_creates_a_room_prints_its_code_and_waits_for_the_seats(
    server_url: str, clock: ManualClock, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--server", server_url, "bot", "--create", "little-billie", "--players", "2"]
    options = parse_args([*argv, "--deal", "4", "--countdown", "1", "--speed", "10"])
    host = asyncio.create_task(run(options, Path("unused")))
    async with asyncio.timeout(LIMIT_S):
        while not (printed := capsys.readouterr().out):
            await asyncio.sleep(0.01)
    assert printed.startswith("code: ")
    code = printed.split()[1]
    starter = asyncio.create_task(start_when_counting_down(server_url, code, clock))
    guest = await run_bot(server_url, _join(code, "Second"), BotPlan("Second", speed=50), print)
    await starter
    async with asyncio.timeout(LIMIT_S):
        assert await host == 0 and guest == 0
    results = capsys.readouterr().out
    assert results.count("Race 1 results:") == 2 and "The seed is public deal 4" in results


async def test_bots_for_the_host_fill_the_room(
    ada: Terminal, server_url: str, clock: ManualClock
) -> None:
    ada.start(_create("little-milligan", 3))
    await ada.wait_for("Share the code")
    said: list[str] = []
    async with BotTeam(ada.session, 2, FAST_BOTS, said.append) as team:
        held = team.hold(_typed("ready"))
        first = asyncio.ensure_future(anext(held))
        await ada.wait_for("Bot 1 (casual) joined as")
        await ada.wait_for("Bot 2 (good) joined as")
        async with asyncio.timeout(LIMIT_S):
            assert await first == "ready"
        assert said == [
            "Your client runs the bots instead; they leave when you do.",
            "Both bots are seated. Type ready when you are.",
        ], "a server without house bots: the client runs them, and says so"
        await ready_and_go(clock, ada)
        await ada.type("resign", expect="You resigned after")
        await ada.wait_for("Race 1 results:")
        room = ada.session.tracker.room
        assert room is not None and not any(player.away for player in room.players)
        assert team.task is not None and not team.task.done(), "the bots stay for a rematch"
    assert team.task.done(), "they leave with the host"
    assert said[-1] == "Both bots are seated. Type ready when you are."


async def test_a_bot_says_ready_again_after_the_host_changes_the_settings(
    ada: Terminal, server_url: str, clock: ManualClock
) -> None:
    """A change of game or settings makes everyone unready; a bot that stayed
    unready would leave a room that can never start."""
    ada.start(_create("little-forty", 2))
    await ada.wait_for("Share the code")
    code = ada.session.tracker.code
    assert code is not None
    plan, said = BotPlan("Robo", speed=FAST_BOTS), list[str]()
    bot = asyncio.create_task(run_bot(server_url, _join(code, "Robo"), plan, said.append))
    await ada.wait_for("Robo is ready.")
    mark = len(ada.output)
    room = ada.session.tracker.room
    assert room is not None
    longer = room.settings.model_copy(update={"time_limit_s": 120})
    request = SetSettings(id=ada.session.pending.next_id(), variant=room.variant, settings=longer)
    await ada.session.call(request)
    await ada.wait_for("Everyone must be ready again.", mark)
    await ada.wait_for("Robo is ready.", mark)
    await ready_and_go(clock, ada)
    await ada.type("resign", expect="You resigned after")
    async with asyncio.timeout(LIMIT_S):
        assert await bot == 0
    assert said[0].startswith("Race 1 results:")


async def test_a_bot_with_a_taken_name_says_why(ada: Terminal, server_url: str) -> None:
    ada.start(_create("little-forty", 3))
    await ada.wait_for("Share the code")
    code = ada.session.tracker.code
    assert code is not None
    said: list[str] = []
    assert await run_bot(server_url, _join(code, "ada"), BotPlan("ada"), said.append) == 1
    assert "room/name-taken" in "\n".join(said)


def test_a_bot_says_ready_once_per_race_when_every_seat_is_taken() -> None:
    bot = Bot(Session("ws://unused", print), BotPlan("Robo"))
    tracker = Tracker()
    assert bot.next_line(tracker) is None
    tracker.room = _joined_room(players=2, seats=3)
    assert bot.next_line(tracker) is None
    tracker.room = _joined_room(players=3, seats=3)
    assert bot.next_line(tracker) == "ready"
    assert bot.next_line(tracker) is None


def _joined_room(players: int, seats: int) -> RoomSnapshot:
    people = tuple(
        PlayerInfo(
            seat=seat,
            name=f"P{seat}",
            ready=False,
            away=False,
            outcome="playing",
            progress=0,
            moves=0,
            finished_at_ms=None,
        )
        for seat in range(players)
    )
    return RoomSnapshot(
        code="ABC234",
        variant="little-forty",
        settings=Settings(max_players=seats),
        phase="lobby",
        race_no=1,
        host=0,
        players=people,
        spectators=0,
        start_at_ms=None,
        seed_commit=None,
        seed=None,
    )


async def _typed(*lines: str) -> AsyncIterator[str]:
    for line in lines:
        yield line


def _join(code: str, name: str) -> Entry:
    return lambda id_: JoinRoom(id=id_, code=code, name=name)


def test_what_the_rate_limit_refused_is_tried_again() -> None:
    bot = Bot(Session("ws://unused", print), BotPlan("Robo"))
    tracker = Tracker()
    tracker.room = _joined_room(players=1, seats=1).model_copy(update={"phase": "racing"})
    tracker.seat = 0
    tracker.board = BoardView.from_engine(engine.view(engine.new_game("little-forty", b"deal:7")))
    first = bot.next_line(tracker)
    assert first is not None
    bot.player.undo(first)
    assert bot.next_line(tracker) == first
    assert bot.next_line(tracker) != first
