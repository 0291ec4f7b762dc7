"""Bots of every level in one real race: seated, ready, racing to the results."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bots.levels import LEVELS, Level, level_name
from client_cli.bots.runner import Bot, BotPlan, run_bot
from client_cli.session.session import Entry, Session
from protocol import CreateRoom, JoinRoom, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.store import Store
from tests.client_cli._driver import Terminal, ready_and_go

FAST_BOTS = 1000.0
"""Think times a thousand times shorter than a person's: the race takes no waiting."""
LIMIT_S = 60


@pytest.fixture
async def race_server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    config = Config(port=0, rate_per_s=10_000, rate_burst=10_000)
    async with RaceServer(config, store, clock) as server:
        yield server


@pytest.fixture
async def ada(server_url: str) -> AsyncIterator[Terminal]:
    terminal = Terminal(server_url)
    yield terminal
    await terminal.close()


def _create(players: int) -> Entry:
    settings = Settings(max_players=players, countdown_s=1, time_limit_s=600, deal_number=1)
    return lambda id_: CreateRoom(id=id_, variant="little-milligan", name="Ada", settings=settings)


def _join(code: str, name: str) -> Entry:
    return lambda id_: JoinRoom(id=id_, code=code, name=name, bot=True)


async def test_bots_of_the_lower_levels_race_to_the_results(
    ada: Terminal, server_url: str, clock: ManualClock
) -> None:
    await _race(ada, server_url, clock, LEVELS[:3])


@pytest.mark.slow
async def test_five_bots_one_per_level_race_to_the_results(
    ada: Terminal, server_url: str, clock: ManualClock
) -> None:
    """The strong and expert bots search as they play: some seconds of CPU."""
    await _race(ada, server_url, clock, LEVELS)


async def _race(
    ada: Terminal, server_url: str, clock: ManualClock, levels: tuple[Level, ...]
) -> None:
    ada.start(_create(len(levels) + 1))
    await ada.wait_for("Share the code")
    code = ada.session.tracker.code
    assert code is not None
    said: list[list[str]] = [[] for _ in levels]
    names = [level_name(f"Bot {number}", level) for number, level in enumerate(levels, 1)]
    bots = [
        asyncio.create_task(
            run_bot(
                server_url,
                _join(code, name),
                BotPlan(name, speed=FAST_BOTS, level=level),
                out.append,
            )
        )
        for name, level, out in zip(names, levels, said, strict=True)
    ]
    for name in names:
        await ada.wait_for(f"{name} is ready.")
    await ready_and_go(clock, ada)
    await ada.type("resign", expect="You resigned after")
    async with asyncio.timeout(LIMIT_S):
        assert await asyncio.gather(*bots) == [0] * len(levels)
    for lines in said:
        text = "\n".join(lines)
        assert text.startswith("Race 1 results:") and "matches the commit" in text
        assert "WARNING" not in text
    for name in names:
        assert f"Replayed {name}'s" in "\n".join(said[0])


def test_a_levelled_bot_thinks_before_each_move_as_its_seed_says() -> None:
    """The pauses a bot takes come from its seed alone: two bots of one seed
    pause the same, another seed pauses otherwise, and none keeps a fixed beat."""

    def pauses(seed: int) -> list[float]:
        bot = Bot(Session("ws://unused", print), BotPlan("B", level="casual", seed=seed))
        slept = []
        for choices in (1, 4, 16, 4, 1, 30):
            bot.player.choices = choices
            slept.append(bot.player.pause_s("t1 f"))
        return slept

    first = pauses(1)
    assert first == pauses(1) and first != pauses(2)
    assert len(set(first)) == len(first) and all(seconds > 0 for seconds in first)
