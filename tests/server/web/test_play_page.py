"""The play page in a real browser: friends race from the link, against a terminal client.

A server on the test's manual clock holds a Little Milligan room on a public deal;
headless Chromium opens ``/play/CODE`` for each browser player, who types a name, says
ready and plays a fixed line (the engine's solver's winning line of that deal) with
clicks, drags or keys. The page shows only boards the server sent (every move waits for
its ``move_ok``), so what it draws is held against the engine's own replay of the line.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.solver import Budget, solve
from protocol import CreateRoom, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.server._browser import PHONE, Tab, artifact_dir, browser, open_tab
from tests.server._client import Client
from tests.server._players import serve
from tests.server.web._play import PHASE, STEP, join, play_url, ready, record_frames

VARIANT = "little-milligan"
DEAL = 3
SEED = b"deal:%d" % DEAL


@pytest.fixture
async def server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    async with serve(store, clock) as running:
        yield running


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    async with browser() as started:
        yield started


async def host_room(server: RaceServer, clock: ManualClock) -> tuple[Client, str]:
    host = await Client.open(f"ws://127.0.0.1:{server.port}", clock)
    created = await host.call(
        CreateRoom, variant=VARIANT, name="Host", settings=Settings(deal_number=DEAL, countdown_s=3)
    )
    assert created.type == "joined", created
    return host, created.code


async def test_a_friend_takes_a_seat_from_the_link(
    server: RaceServer, clock: ManualClock, chromium: Any, tmp_path: Path
) -> None:
    host, code = await host_room(server, clock)
    tab = await open_tab(chromium, play_url(server.port, code), PHONE)
    frames = record_frames(tab)
    await join(tab, "Cleo")
    await tab.wait_for(PHASE, "lobby")
    seats = await tab.run("() => Array.from(document.querySelectorAll('#seats li'), (li) => li.textContent)")
    assert seats == ["Hosthostnot ready", "Cleoyounot ready"]
    await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "play-lobby-phone.png"), full_page=True)
    assert tab.errors == []
    assert frames
    await host.close()
