"""A challenge raced from its link: ``/challenge/CODE`` takes a seat in a room of the
challenge's own, races the deal against the recorded runs as ghosts (progress only,
drawn in the live panel as the server plays them), resumes after a reload, and ends
with the results. ``/daily/GAME`` is the same page for a game's deal of the day."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.app import RaceServer
from server.clock import ManualClock
from tests.server._browser import PHONE, artifact_dir, browser, open_tab
from tests.server.requests._challenges import GAME, SEED, STEP_MS, made_challenge
from tests.server.web._play import (
    PHASE,
    STEP,
    assert_own_boards_only,
    create,
    join,
    play_url,
    ready,
    record_frames,
)

GHOSTS = (
    "() => Array.from(document.querySelectorAll('#racers li.ghost'), (line) =>"
    " [line.querySelector('.racer-name').textContent,"
    " line.querySelector('.racer-moves').textContent])"
)


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    async with browser() as started:
        yield started


def once_each(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frames with each room event once: the page's second socket (after the
    reload) is sent again the events it had not seen, as a resumed client is."""
    seen: set[int] = set()
    kept = []
    for frame in frames:
        if frame["type"] == "event":
            if frame["seq"] in seen:
                continue
            seen.add(frame["seq"])
        kept.append(frame)
    return kept


def ghost_moves(shown: list[list[str]], name: str) -> str | None:
    """The moves shown of the ghost named `name` (its line reads NAME then its marks)."""
    return next((moves for line, moves in shown if line.startswith(name)), None)


async def test_a_challenge_link_races_the_deal_against_its_ghosts(
    race_server: RaceServer, clock: ManualClock, chromium: Any, tmp_path: Path
) -> None:
    made, over = await made_challenge(race_server, clock)
    code = made.challenge.code
    folder = artifact_dir(tmp_path)
    tab = await open_tab(chromium, f"http://127.0.0.1:{race_server.port}/challenge/{code}", PHONE)
    frames = record_frames(tab)
    await tab.wait_for(STEP, "join")
    said = await tab.run("() => document.getElementById('join-what').textContent")
    assert f"race challenge {code}" in said
    await join(tab, "Cid")
    room = re.search(r"/play/([A-Z0-9]{6})$", tab.page.url)
    assert room is not None and room.group(1) != code, "the page is the new room's now"

    await ready(tab)
    await tab.wait_for(PHASE, "countdown")
    clock.advance(1000)
    await tab.wait_for(PHASE, "racing")
    shown = await tab.wait_for(f"() => ({GHOSTS})().length === 2 && ({GHOSTS})()")
    assert sorted(line for line, _ in shown) == ["Annghost", "Bobghost"]
    begun = clock.now_ms()
    clock.advance(3 * STEP_MS)
    await tab.wait_for(
        f"() => ({GHOSTS})().some(([n, m]) => n.startsWith('Ann') && m === '3 moves')"
    )
    await tab.page.screenshot(path=str(folder / "challenge-ghosts-phone.png"), full_page=True)
    # A spectator of the challenge's room sees the racer's board and the ghosts' progress.
    watcher = await open_tab(chromium, f"http://127.0.0.1:{race_server.port}/watch/{room.group(1)}")
    watched = await watcher.wait_for(
        "() => document.querySelectorAll('#ghost-list li').length === 2 &&"
        " Array.from(document.querySelectorAll('#ghost-list li'), (li) => li.textContent)"
    )
    assert any(line.startswith("Ann (guest)") and line.endswith("3 moves") for line in watched)
    assert not await watcher.run("() => document.getElementById('ghosts').hidden")
    await watcher.page.screenshot(path=str(folder / "challenge-watch.png"), full_page=True)
    assert watcher.errors == []
    await watcher.page.close()

    await tab.page.reload()  # the seat and the ghosts as last shown come back at once
    await tab.wait_for(STEP, "room")
    shown = await tab.wait_for(f"() => ({GHOSTS})().length === 2 && ({GHOSTS})()")
    assert ghost_moves(shown, "Ann") == "3 moves"
    assert clock.now_ms() == begun + 3 * STEP_MS

    await tab.page.keyboard.press("x")
    await tab.page.keyboard.press("x")
    await tab.wait_for(PHASE, "finished")
    await tab.wait_for("() => document.getElementById('seed-check').dataset.ok === 'true'")
    ranking = await tab.run(
        "() => Array.from(document.querySelectorAll('#ranking tr'),"
        " (tr) => tr.cells[1].textContent)"
    )
    assert ranking == ["Cid"], "ghosts are not racers of the room"
    assert tab.errors == []
    assert_own_boards_only(once_each(frames), 0, GAME, SEED)
    ghost_events = [
        f["event"]
        for f in frames
        if f.get("type") == "event" and f["event"]["type"] == "ghost_progress"
    ]
    assert ghost_events and all("board" not in e and "line" not in e for e in ghost_events)
    assert over.ranking, "the recorded race had runs"


async def test_a_daily_link_races_the_games_deal_of_the_day(
    race_server: RaceServer, chromium: Any
) -> None:
    tab = await open_tab(chromium, f"http://127.0.0.1:{race_server.port}/daily/{GAME}", PHONE)
    await tab.wait_for(STEP, "join")
    said = await tab.run("() => document.getElementById('join-what').textContent")
    assert f"today's deal of {GAME}" in said
    await join(tab, "Dee")
    assert re.search(r"/play/[A-Z0-9]{6}$", tab.page.url)
    seats = await tab.run("() => document.querySelectorAll('#seats li').length")
    assert seats == 1
    assert tab.errors == []


async def test_a_race_is_made_a_challenge_from_the_results_and_its_link_races_it(
    race_server: RaceServer, clock: ManualClock, chromium: Any
) -> None:
    tab = await open_tab(chromium, play_url(race_server.port), PHONE)
    await create(tab, "Ada")
    await ready(tab)
    await tab.wait_for(PHASE, "countdown")
    clock.advance(3000)
    await tab.wait_for(PHASE, "racing")
    await tab.page.keyboard.press("x")
    await tab.page.keyboard.press("x")
    await tab.wait_for(PHASE, "finished")
    assert await tab.run("() => document.getElementById('challenge-made').hidden")
    await tab.page.click("#make-challenge")
    said = await tab.wait_for(
        "() => !document.getElementById('challenge-made').hidden &&"
        " document.getElementById('challenge-said').textContent"
    )
    code = re.fullmatch(r"Challenge ([A-Z0-9]{6}): anyone races this deal .* UTC\.", said)
    assert code is not None, said
    link = await tab.run("() => document.getElementById('challenge-link').textContent")
    assert link == f"http://127.0.0.1:{race_server.port}/challenge/{code.group(1)}"
    key = await tab.run("() => document.getElementById('challenge-key').textContent")
    assert key.startswith("Its key closes it early")
    assert tab.errors == []
    friend = await open_tab(chromium, link, PHONE)
    await friend.wait_for(STEP, "join")
    what = await friend.run("() => document.getElementById('join-what').textContent")
    assert f"race challenge {code.group(1)}" in what
    await join(friend, "Bob")
    assert friend.errors == []
