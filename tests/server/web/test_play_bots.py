"""House bots from the play page, against a real server whose bot process plays them
(the quick process of the house tests: no pauses between a bot's moves).

The host seats bots of a chosen level and frees them from the lobby; a visitor at
``/play/`` starts a practice race against the server's bots and races it to the
results. Every seat shows as a bot with its level; the page never receives a bot's
board.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.conftest import OpenStore
from tests.server._browser import PHONE, artifact_dir, browser, open_tab
from tests.server._players import serve
from tests.server.house._house import house_server
from tests.server.web._play import (
    LOBBY_SAID,
    PHASE,
    SAID,
    STEP,
    assert_own_boards_only,
    create,
    join,
    key_move,
    play_url,
    ready,
    record_frames,
    solver_line,
)

VARIANT = "little-milligan"
DEAL = 3
SEED = b"deal:%d" % DEAL
SEATS = "() => Array.from(document.querySelectorAll('#seats li'), (li) => li.textContent)"
BOTS_READY = (
    "([n]) => document.querySelectorAll('#seats li[data-ready=\"true\"] .seat-mark.bot')"
    ".length === n"
)


@pytest.fixture
async def server(open_store: OpenStore, clock: ManualClock) -> AsyncIterator[RaceServer]:
    started = await house_server(await open_store(), clock)
    try:
        yield started
    finally:
        await started.stop()


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    async with browser() as started:
        yield started


async def add_bot(tab: Any, level: str, seats: int) -> None:
    await tab.page.select_option("#bot-level", level)
    await tab.page.click("#bot-form button[type=submit]")
    await tab.wait_for("([n]) => document.querySelectorAll('#seats li').length === n", seats)


async def test_the_host_seats_house_bots_of_a_level_and_frees_one(
    server: RaceServer, chromium: Any, tmp_path: Path
) -> None:
    ada = await open_tab(chromium, play_url(server.port), PHONE)
    await create(ada, "Ada")
    levels = "() => Array.from(document.getElementById('bot-level').options, (o) => o.text)"
    assert await ada.run(levels) == ["1 beginner", "2 casual", "3 good", "4 strong", "5 expert"]
    await add_bot(ada, "beginner", 2)
    await add_bot(ada, "strong", 3)
    await ada.wait_for(BOTS_READY, 2)
    assert await ada.run(SEATS) == [
        "Adayouhostnot ready",
        "Beginner botbot, beginnerreadyRemove",
        "Strong botbot, strongreadyRemove",
    ]
    assert not await ada.run("() => document.getElementById('bot-form').hidden")
    await ada.page.screenshot(
        path=str(artifact_dir(tmp_path) / "lobby-add-bot-phone.png"), full_page=True
    )
    code = (await ada.run("() => location.pathname")).rsplit("/", 1)[1]
    bob = await open_tab(chromium, play_url(server.port, code))
    await join(bob, "Bob")
    await ada.wait_for("() => document.querySelectorAll('#seats li').length === 4")
    await ada.page.screenshot(
        path=str(artifact_dir(tmp_path) / "lobby-house-bots-phone.png"), full_page=True
    )
    # Only the host may seat or free a bot: the others see the bots and no controls.
    assert await bob.run("() => document.getElementById('bot-form').hidden")
    assert await bob.run("() => document.querySelectorAll('[data-remove-bot]').length") == 0
    assert "bot, strong" in " ".join(await bob.run(SEATS))
    # A spectator sees the bots' levels too.
    watcher = await open_tab(chromium, f"http://127.0.0.1:{server.port}/watch/{code}")
    marks = await watcher.wait_for(
        "() => document.querySelectorAll('.seat-mark').length === 2 &&"
        " Array.from(document.querySelectorAll('.seat-mark'), (m) => m.textContent)"
    )
    assert marks == ["bot, beginner", "bot, strong"]

    # Freed by keyboard: the Remove button takes focus, keeps it while the seats are
    # drawn again (Bob says ready), and Enter presses it.
    await ada.page.locator('[data-remove-bot="1"]').focus()
    await ready(bob)
    await ada.wait_for(
        "() => document.querySelectorAll('#seats li[data-ready=\"true\"]').length === 3"
    )
    assert await ada.run("() => document.activeElement.dataset.removeBot") == "1"
    await ada.page.keyboard.press("Enter")
    for tab in (ada, bob):
        await tab.wait_for("() => document.querySelectorAll('#seats li').length === 3")
    names = "() => Array.from(document.querySelectorAll('#seats .seat-name'), (n) => n.textContent)"
    assert await bob.run(names) == ["Ada", "Strong bot", "Bob"]
    assert ada.errors == bob.errors == watcher.errors == []


async def test_a_practice_race_against_the_servers_bots_runs_to_the_results(
    server: RaceServer, clock: ManualClock, chromium: Any, tmp_path: Path
) -> None:
    line = solver_line(VARIANT, SEED)
    folder = artifact_dir(tmp_path)
    tab = await open_tab(chromium, play_url(server.port), PHONE)
    frames = record_frames(tab)
    await tab.wait_for(STEP, "create")
    await tab.page.fill("#create-name", "Ada")
    await tab.page.select_option("#create-settings [name=variant]", VARIANT)
    await tab.page.fill("#create-settings [name=deal_number]", str(DEAL))
    await tab.page.screenshot(path=str(folder / "create-phone.png"), full_page=True)
    await tab.page.click("#practice")
    await tab.wait_for(STEP, "room")
    await tab.wait_for(BOTS_READY, 2)
    assert await tab.run(SEATS) == [
        "Adayouhostnot ready",
        "Casual botbot, casualreadyRemove",
        "Good botbot, goodreadyRemove",
    ]
    terms = await tab.run("() => document.getElementById('terms').textContent")
    assert "practice room" in terms and "0 seats free" in terms
    await tab.page.screenshot(path=str(folder / "practice-lobby-phone.png"), full_page=True)

    await ready(tab)
    await tab.wait_for(PHASE, "countdown")
    clock.advance(3000)
    await tab.wait_for(PHASE, "racing")
    await tab.wait_for("() => document.getElementById('table').dataset.version === '0'")
    for move in line:
        await key_move(tab, move)
    await tab.wait_for(
        "() => document.querySelector('#racers [data-seat=\"0\"]')?.dataset.outcome === 'won'"
    )
    marks = "() => Array.from(document.querySelectorAll('#racers .bot'), (m) => m.textContent)"
    assert await tab.run(marks) == ["bot, casual", "bot, good"]
    await tab.page.screenshot(path=str(folder / "practice-won-phone.png"), full_page=True)
    # The bots race on until they finish or the time limit (15 minutes) runs out.
    clock.advance(900_000)
    await tab.wait_for(PHASE, "finished")
    await tab.wait_for("() => document.getElementById('seed-check').dataset.ok === 'true'")
    ranking = await tab.run(
        "() => Array.from(document.querySelectorAll('#ranking tr'),"
        " (tr) => [tr.cells[1].textContent, tr.cells[2].textContent])"
    )
    assert ("Ada", "won") in [tuple(row) for row in ranking]
    assert sorted(name for name, _ in ranking) == ["Ada", "Casual bot", "Good bot"]
    await tab.page.screenshot(path=str(folder / "practice-results-phone.png"), full_page=True)
    assert tab.errors == []
    assert_own_boards_only(frames, 0, VARIANT, SEED)


async def test_practice_on_a_server_without_house_bots_says_so_and_keeps_the_room(
    store: Store, clock: ManualClock, chromium: Any
) -> None:
    async with serve(store, clock) as plain:
        tab = await open_tab(chromium, play_url(plain.port), PHONE)
        await create(tab, "Ada", "#practice")
        said = await tab.wait_for(
            f"() => ({LOBBY_SAID})().startsWith('Refused') && ({LOBBY_SAID})()"
        )
        assert (
            said == "Refused: this server plays no house bots now; run one with `solrace bot CODE`"
        )
        assert await tab.run(SEATS) == ["Adayouhostnot ready"]
        terms = await tab.run("() => document.getElementById('terms').textContent")
        assert "practice room" in terms and "2 seats free" in terms
        assert tab.errors == []


@pytest.mark.solver_workers
async def test_a_practice_racer_asks_for_a_hint_with_h(
    store: Store, clock: ManualClock, chromium: Any, analysis_workers: int
) -> None:
    async with serve(store, clock, analysis_workers=analysis_workers) as plain:
        tab = await open_tab(chromium, play_url(plain.port), PHONE)
        await tab.wait_for(STEP, "create")
        await tab.page.fill("#create-name", "Ada")
        await tab.page.select_option("#create-settings [name=variant]", VARIANT)
        await tab.page.fill("#create-settings [name=deal_number]", str(DEAL))
        await tab.page.click("#practice")  # no house bots here: Ada races alone
        await tab.wait_for(STEP, "room")
        await ready(tab)
        await tab.wait_for(PHASE, "countdown")
        clock.advance(3000)
        await tab.wait_for(PHASE, "racing")
        assert not await tab.run("() => document.getElementById('hint').hidden")
        await tab.page.keyboard.press("H")
        said = await tab.wait_for(f"() => ({SAID})().startsWith('Hint: ') && ({SAID})()")
        move = said.rsplit("(", 1)[1].removesuffix(")")
        legal = {m.format() for m in engine.legal_moves(engine.new_game(VARIANT, SEED))}
        assert move in legal, said
        await key_move(tab, move)
        assert tab.errors == []
