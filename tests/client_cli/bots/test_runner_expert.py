"""The expert bot: the server's hints in a practice room, careful moves otherwise.

Little Milligan deal 2 is won by the server's solver in milliseconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

import engine
from bots.strategy import careful_moves
from client_cli.bots.runner import Bot, BotPlan, run_bot
from client_cli.room.tracker import Tracker
from client_cli.session.session import Session
from protocol import BoardView, CreateRoom, Hint, JoinRoom, PlayerInfo, RoomSnapshot, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.store import Store
from tests.server._client import Client

DEAL = ("little-milligan", b"deal:2")


@pytest.fixture
async def race_server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    """A server that lets the bot move as fast as the test likes, on the test's clock."""
    config = Config(port=0, rate_per_s=10_000, rate_burst=10_000, hint_budget_s=5.0)
    async with RaceServer(config, store, clock) as server:
        yield server


async def test_an_expert_alone_in_a_practice_room_plays_the_solvers_line_to_a_win(
    race_server: RaceServer, server_url: str, clock: ManualClock
) -> None:
    settings = Settings(max_players=1, countdown_s=1, deal_number=2, practice=True)
    said: list[str] = []
    plan = BotPlan("Ace", "expert", speed=1000.0)

    def create(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant="little-milligan", name="Ace", settings=settings)

    starters: list[asyncio.Task[None]] = []

    def start(tracker: Tracker) -> None:
        assert tracker.code is not None
        starters.append(asyncio.create_task(_start_at_once(server_url, tracker.code, clock)))

    async with asyncio.timeout(60):
        assert await run_bot(server_url, create, plan, said.append, start) == 0
        await asyncio.gather(*starters)
    results = "\n".join(said)
    assert " won " in results.splitlines()[1], results


def test_an_expert_asks_for_a_hint_then_plays_it() -> None:
    bot, tracker = _expert(practice=True)
    assert bot.next_line(tracker) == "hint"
    hinted = _a_move(tracker.board, last=True)
    bot.session.last_reply = Hint(id=1, version=0, verdict="won", move=hinted)
    assert bot.next_line(tracker) == hinted


def test_with_no_winning_line_found_the_expert_is_careful() -> None:
    bot, tracker = _expert(practice=True)
    assert bot.next_line(tracker) == "hint"
    bot.session.last_reply = Hint(id=1, version=0, verdict="undecided")
    move = bot.next_line(tracker)
    assert move in [m.format() for _, m in careful_moves(_board(), set())]


def test_in_a_ranked_room_the_expert_asks_nothing_and_is_careful() -> None:
    bot, tracker = _expert(practice=False)
    move = bot.next_line(tracker)
    assert move in [m.format() for _, m in careful_moves(_board(), set())]


async def _start_at_once(url: str, code: str, clock: ManualClock) -> None:
    """Move the server's clock to the end of the room's countdown, which a lone bot
    may have started before this spectator joins."""
    watcher = await Client.open(url, clock)
    try:
        joined = await watcher.call(JoinRoom, code=code, name="clock", role="spectator")
        start_at = joined.room.start_at_ms
        if joined.room.phase == "lobby":
            start_at = (await watcher.wait_event("countdown")).start_at_ms
        clock.advance_to(start_at)
    finally:
        await watcher.close()


def _board() -> BoardView:
    return BoardView.from_engine(engine.view(engine.new_game(*DEAL)))


def _a_move(board: BoardView | None, last: bool) -> str:
    assert board is not None
    moves = engine.legal_moves(engine.game_from_view(board.to_view()))
    return (moves[-1] if last else moves[0]).format()


def _expert(practice: bool) -> tuple[Bot, Tracker]:
    bot = Bot(Session("ws://unused", print), BotPlan("Ace", "expert"))
    tracker = Tracker()
    player = PlayerInfo(
        seat=0,
        name="Ace",
        ready=True,
        away=False,
        outcome="playing",
        progress=0,
        moves=0,
        finished_at_ms=None,
    )
    tracker.room = RoomSnapshot(
        code="ABC234",
        variant=DEAL[0],
        settings=Settings(max_players=1, deal_number=2, practice=practice),
        phase="racing",
        race_no=1,
        host=0,
        players=(player,),
        spectators=0,
        start_at_ms=0,
        seed_commit=None,
        seed=None,
    )
    tracker.seat, tracker.board, tracker.version = 0, _board(), 0
    return bot, tracker
