"""The bots a host seats: brought back with the host's saved seat, or seated anew."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from client_cli.bots.team import BotTeam
from client_cli.session.saved_seats import SavedSeat
from protocol import CreateRoom, Settings
from tests.client_cli._driver import Terminal

LIMIT_S = 10


@pytest.fixture
async def ada(server_url: str) -> AsyncIterator[Terminal]:
    terminal = Terminal(server_url)
    settings = Settings(max_players=2, deal_number=1)
    terminal.start(
        lambda id_: CreateRoom(id=id_, variant="little-forty", name="Ada", settings=settings)
    )
    await terminal.wait_for("Share the code")
    yield terminal
    await terminal.close()


async def test_a_bot_whose_seat_is_gone_takes_a_new_one_in_the_lobby(ada: Terminal) -> None:
    code = ada.session.tracker.code
    assert code is not None
    saved = SavedSeat(ada.session.server, code, "n" * 24, 0, bots=("gone" * 6,), bot_speed=3.0)
    said: list[str] = []
    team = BotTeam(ada.session, 0, 1.0, said.append)
    team.bring_back(saved)
    async with team:
        async with asyncio.timeout(LIMIT_S):
            await team.seated.wait()
        await ada.wait_for("Bot 1 (casual) joined as")
        assert said == ["Your bot is back."]
        [token] = team.team().tokens
        assert token != "gone" * 6 and team.team().speed == 3.0
