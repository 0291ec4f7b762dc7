"""The profile and leaderboard pages in headless Chromium (their addresses:
test_records_addresses.py).

The server reads the accounts the test wrote into its Valkey
(tests/server/web/_records.py) and the pages read the server's JSON; the tests
read the live DOM. The browser runs in Paris time, so the dates show the
reader's time zone, not the server's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

import pytest

from server.app import RaceServer
from tests.server._browser import DESKTOP, Tab, artifact_dir, browser
from tests.server.web._records import (
    ADA,
    ADA_RACES,
    MIN_RACES,
    RACE_MS,
    RIVALS,
    ZOE,
    Records,
    entry,
)

ZONE = "Europe/Paris"
NARROW = {"width": 360, "height": 740}
TEXT = "([selector]) => document.querySelector(selector).textContent"
CELLS = """([selector]) => Array.from(document.querySelectorAll(`${selector} tbody tr`),
  (row) => Array.from(row.cells, (cell) => cell.textContent))"""
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    async with browser() as started:
        yield started


async def open_page(chromium: Any, url: str, viewport: dict[str, int] = DESKTOP) -> Tab:
    """A page at `url` in Paris time; its console errors and failed requests are kept."""
    context = await chromium.new_context(viewport=viewport, timezone_id=ZONE, locale="en-GB")
    page = await context.new_page()
    tab = Tab(page)
    page.on("pageerror", lambda error: tab.errors.append(f"uncaught: {error}"))
    page.on("requestfailed", lambda request: tab.errors.append(f"failed: {request.url}"))

    def on_console(message: Any) -> None:
        if message.type == "error":
            tab.errors.append(message.text)

    page.on("console", on_console)
    await page.goto(url)
    return tab


def local(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, ZoneInfo(ZONE)).strftime("%Y-%m-%d %H:%M")


def site(server: RaceServer) -> str:
    return f"http://127.0.0.1:{server.port}"


async def test_a_profile_shows_ratings_races_and_best_times(
    race_server: RaceServer, records: Records, chromium: Any, tmp_path: Path
) -> None:
    tab = await open_page(chromium, f"{site(race_server)}/players/{ADA}")
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert await tab.run(TEXT, "h1") == ADA
    assert await tab.run(TEXT, "#since") == "Member since 2025-11-24"
    assert sorted(await tab.run(CELLS, "#ratings")) == [
        ["Little Billie", "1500 provisional", "2"],
        ["Little Forty", "1980", "12"],
    ]
    rated, practice, public = await tab.run(CELLS, "#recent")
    assert rated == [
        local(RACE_MS),
        "Little Forty",
        "RTD234 · race 3",
        "secret",
        "1 / 2",
        "won",
        "104 / 104",
        "1:23.4",
        "131",
        "1960 → 1980 (+20)",
    ]
    assert practice[1:] == [
        "Little Billie",
        "PRC567 · race 1",
        "secret",
        "2 / 3",
        "stuck",
        "61 / 104",
        "5:01.2",
        "77",
        "practice",
    ]
    assert public[3] == "deal 7" and public[9] == "unrated"
    assert len(ADA_RACES) == 3
    assert await tab.run(CELLS, "#best") == [
        ["Little Forty", "deal 7", "1:35.0", local(RACE_MS - 2 * 86_400_000)]
    ]
    deal_link = "#best tbody a[href$='?deal=7']"
    assert await tab.run(f"() => document.querySelectorAll({deal_link!r}).length") == 1
    folder = artifact_dir(tmp_path)
    await tab.page.screenshot(path=str(folder / "profile-desktop.png"), full_page=True)
    assert tab.errors == []


async def test_a_profile_fits_a_phone_with_each_race_stacked(
    race_server: RaceServer, records: Records, chromium: Any, tmp_path: Path
) -> None:
    tab = await open_page(chromium, f"{site(race_server)}/players/{ADA}", NARROW)
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert await tab.run(NO_SIDEWAYS_SCROLL)
    label = "() => getComputedStyle(document.querySelector('#recent td'), '::before').content"
    assert await tab.run(label) == '"date"', "each cell is labelled with its heading"
    roles = "() => document.querySelector('#recent td').getAttribute('role')"
    assert await tab.run(roles) == "cell", "still a table to a screen reader"
    await tab.page.screenshot(
        path=str(artifact_dir(tmp_path) / "profile-phone.png"), full_page=True
    )
    assert tab.errors == []


async def test_a_profile_shows_older_races_and_one_games_races_on_asking(
    race_server: RaceServer, records: Records, chromium: Any, tmp_path: Path
) -> None:
    await records.account("Many")
    for n in range(25):  # oldest first: race 25 is the newest
        game = "little-billie" if n % 5 == 0 else "little-forty"
        await records.race("Many", entry(RACE_MS + n * 60_000, variant=game, race_no=n + 1))
    tab = await open_page(chromium, f"{site(race_server)}/players/Many")
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    rooms = """() => Array.from(document.querySelectorAll('#recent tbody tr'),
      (row) => row.cells[2].textContent)"""
    assert await tab.run(rooms) == [f"ABC234 \u00b7 race {n}" for n in range(25, 5, -1)]
    shot = artifact_dir(tmp_path) / "profile-older.png"
    await tab.page.screenshot(path=str(shot), full_page=True)
    await tab.page.focus("#older")
    await tab.page.keyboard.press("Enter")
    await tab.wait_for("() => document.querySelectorAll('#recent tbody tr').length === 25")
    assert (await tab.run(rooms))[20:] == [f"ABC234 \u00b7 race {n}" for n in range(5, 0, -1)]
    assert await tab.run("() => document.getElementById('older').hidden")
    await tab.page.select_option("#races-game", "little-billie")
    await tab.wait_for("() => document.querySelectorAll('#recent tbody tr').length === 5")
    assert await tab.run(rooms) == [f"ABC234 \u00b7 race {n}" for n in (21, 16, 11, 6, 1)]
    await tab.page.select_option("#races-game", "double-canfield-40")
    await tab.wait_for("() => document.getElementById('recent').hidden")
    assert await tab.run(TEXT, "#recent-empty") == "No race of Double Canfield 40 yet."
    assert tab.errors == []


async def test_an_unknown_player_is_said_so(
    race_server: RaceServer, records: Records, chromium: Any, tmp_path: Path
) -> None:
    tab = await open_page(chromium, f"{site(race_server)}/players/{quote('Nobody Ñ')}", NARROW)
    await tab.wait_for("() => document.body.dataset.state === 'missing'")
    assert await tab.run(TEXT, "#status") == "There is no player named “Nobody Ñ” on this server."
    assert await tab.run("() => document.getElementById('profile').hidden")
    assert await tab.run(TEXT, ".links a") == "Leaderboards"
    await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "profile-unknown.png"))
    assert tab.errors == [
        "Failed to load resource: the server responded with a status of 404 (Not Found)"
    ]


async def test_a_board_pages_through_its_places_and_leads_to_profiles(
    race_server: RaceServer, records: Records, chromium: Any, tmp_path: Path
) -> None:
    tab = await open_page(chromium, f"{site(race_server)}/leaderboard/little-forty")
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert await tab.run(TEXT, "h1") == "Little Forty: by rating"
    said = f"Accounts show here once they have {MIN_RACES} rated races of Little Forty."
    assert await tab.run(TEXT, "#note") == said
    rows = await tab.run(CELLS, "#board")
    assert len(rows) == 20
    assert rows[0] == ["1", ADA, "1980", "12"]
    assert rows[1][:2] == ["2", ZOE]
    assert await tab.run(TEXT, "#range") == "places 1\u201320 of 26"
    assert await tab.run("() => document.getElementById('previous').hidden")
    current = "() => document.querySelector('#games [aria-current=page]').textContent"
    assert await tab.run(current) == "Little Forty"
    await tab.page.screenshot(
        path=str(artifact_dir(tmp_path) / "board-desktop.png"), full_page=True
    )

    async with tab.page.expect_navigation():
        await tab.page.click("#next")
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert tab.page.url.endswith("/leaderboard/little-forty?page=2")
    rows = await tab.run(CELLS, "#board")
    assert [row[:2] for row in rows] == [
        [str(21 + n), name] for n, name in enumerate(RIVALS[5::-1])
    ]
    assert await tab.run(TEXT, "#range") == "places 21\u201326 of 26"
    assert await tab.run("() => document.getElementById('next').hidden")

    async with tab.page.expect_navigation():
        await tab.page.click("#previous")
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert tab.page.url.endswith("/leaderboard/little-forty")
    await tab.page.focus(f"#board a:text-is('{ZOE}')")
    async with tab.page.expect_navigation():
        await tab.page.keyboard.press("Enter")
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert tab.page.url.endswith(f"/players/{quote(ZOE)}")
    assert await tab.run(TEXT, "h1") == ZOE
    assert tab.errors == []


async def test_a_deal_board_is_asked_for_with_the_form(
    race_server: RaceServer, records: Records, chromium: Any, tmp_path: Path
) -> None:
    tab = await open_page(chromium, f"{site(race_server)}/leaderboard/little-forty", NARROW)
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert await tab.run(NO_SIDEWAYS_SCROLL)
    await tab.page.fill("#deal", "7")
    async with tab.page.expect_navigation():
        await tab.page.press("#deal", "Enter")
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert tab.page.url.endswith("/leaderboard/little-forty?deal=7")
    assert await tab.run(TEXT, "h1") == "Little Forty: fastest wins of deal 7"
    assert await tab.run(CELLS, "#board") == [
        ["1", ZOE, "1:28.8", local(RACE_MS - 3 * 86_400_000)],
        ["2", ADA, "1:35.0", local(RACE_MS - 2 * 86_400_000)],
    ]
    assert await tab.run("() => document.getElementById('pages').hidden")
    assert await tab.run(NO_SIDEWAYS_SCROLL)
    await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "deal-phone.png"), full_page=True)
    async with tab.page.expect_navigation():
        await tab.page.click("#by-rating")
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert await tab.run(TEXT, "h1") == "Little Forty: by rating"
    assert tab.errors == []


async def test_an_empty_board_and_an_unknown_game_are_said_so(
    race_server: RaceServer, records: Records, chromium: Any, tmp_path: Path
) -> None:
    tab = await open_page(chromium, f"{site(race_server)}/leaderboard/little-milligan")
    await tab.wait_for("() => document.body.dataset.state === 'shown'")
    assert await tab.run(TEXT, "#status") == "No one is on this board yet."
    assert await tab.run("() => document.getElementById('board').hidden")
    unknown = await open_page(chromium, f"{site(race_server)}/leaderboard/chess")
    await unknown.wait_for("() => document.body.dataset.state === 'missing'")
    said = "There is no game “chess”: pick one of the games above."
    assert await unknown.run(TEXT, "#status") == said
    games = "() => Array.from(document.querySelectorAll('#games a'), (a) => a.textContent)"
    assert await unknown.run(games) == [
        "Little Forty",
        "Little Milligan",
        "Little Billie",
        "Double Canfield 40",
    ]
    await unknown.page.screenshot(path=str(artifact_dir(tmp_path) / "board-unknown.png"))
    assert tab.errors == []
