"""The spectator page in a real browser: a race watched live, from the lobby to the seed check.

A server on the test's manual clock runs a race of scripted players on a
public deal; headless Chromium opens ``/watch/CODE`` and the tests read the
live DOM. What the page draws of a board is held against what a terminal
spectator in the same room received, so the page shows exactly what the
server sends to spectators, no more. The page's own functions (msgpack, the
SHA-256 fallback, board drawing) are tested in the page: see test_scripts_js.py.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from protocol import HIDDEN_CARD, BoardView, EndRace, RequestRematch, Settings
from protocol.limits import IDLE_WARNING_S
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.conftest import OpenStore
from tests.server._browser import PHONE, Tab, artifact_dir, browser, open_tab
from tests.server._client import Client
from tests.server._players import (
    Race,
    Racer,
    greedy_line,
    open_race,
    race_over,
    ready_all,
    serve,
    start,
    states_of,
    wait_start,
)
from tests.server.conftest import opened_clients

VARIANT = "little-forty"
DEAL = 7
SEED = b"deal:%d" % DEAL
SETTINGS = Settings(countdown_s=3, deal_number=DEAL)

SHOWN = """(seat) => {
  const panel = document.querySelector(`#boards [data-seat="${seat}"]`);
  return panel && Array.from(panel.querySelectorAll(".card[data-card]"), (c) => c.dataset.card);
}"""
"""The cards a racer's panel draws, face up or "??", in document order."""
SHOWS = f"([seat, want]) => JSON.stringify(({SHOWN})(seat)) === JSON.stringify(want)"
PROGRESS = """(seat) => {
  const bar = document.querySelector(`#boards [data-seat="${seat}"] [role=progressbar]`);
  return [Number(bar.getAttribute("aria-valuenow")), bar.querySelector(".fill").style.width];
}"""
MOVED = f"([seat]) => {{ const p = ({PROGRESS})(seat); return p[0] > 0 && p; }}"
VERSION = '(seat) => document.querySelector(`#boards [data-seat="${seat}"]`).dataset.version'
TEXT = "([selector]) => document.querySelector(selector).textContent"
PLACES = (
    "() => Array.from(document.querySelectorAll('#banner .last-race li'), (li) => li.textContent)"
)
VERDICT_BUDGET_S = 0.2
"""The solver's budget for the raced deal, which it does not decide in that time."""


@pytest.fixture
async def server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    async with serve(
        store, clock, analysis_workers=1, verdict_budget_s=VERDICT_BUDGET_S
    ) as running:
        yield running


@pytest.fixture
async def connect(server: RaceServer) -> AsyncIterator[Callable[[], Awaitable[Client]]]:
    async with opened_clients(Client.open, server) as open_:
        yield open_


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    async with browser() as started:
        yield started


def shown_cards(board: BoardView) -> list[str]:
    """The cards the page draws face up or as "??", in its order: waste top three,
    reserve top, foundations, then the tableau pile by pile (counts left out)."""
    cards = list(board.waste[-3:])
    cards += [board.reserve] if board.reserve is not None else []
    cards += [top for top in board.foundations if top is not None]
    return cards + [card for pile in board.tableau for card in pile]


def first_progress(line: list[str]) -> int:
    """How many moves of `line` it takes to put the first card home."""
    states = states_of(VARIANT, SEED, line)
    return next(i for i, state in enumerate(states) if engine.view(state).progress > 0)


async def watched_race(connect: Callable[[], Awaitable[Client]]) -> Race:
    return await open_race(connect, VARIANT, ["Ada", "Bob"], SETTINGS, watchers=1)


def tenths(ms: int) -> str:
    """A race time as the page gives it: m:ss.t."""
    return f"{ms // 60_000}:{ms // 1000 % 60:02d}.{ms // 100 % 10}"


def page_url(server: RaceServer, code: str) -> str:
    return f"http://127.0.0.1:{server.port}/watch/{code}"


async def board_seen(race: Race, racer: Racer) -> BoardView:
    """The terminal spectator's board of `racer` once it shows the racer's last move."""
    version = racer.version
    shown = await race.watchers[0].wait_event(
        "board", lambda e: e.seat == racer.seat and e.version == version
    )
    board: BoardView = shown.board
    return board


async def test_a_race_watched_live_from_lobby_to_seed_check(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any, tmp_path: Path
) -> None:
    race = await watched_race(connect)
    ada, bob = race.racers
    tab = await open_tab(chromium, page_url(server, race.code))
    await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
    assert await tab.run("() => document.querySelectorAll('#boards .panel').length") == 2
    assert await tab.run(TEXT, "#link") == "live"

    await ready_all(race)
    await tab.wait_for("() => document.body.dataset.phase === 'countdown'")
    assert await tab.run(TEXT, ".count-down") in {"1", "2", "3"}
    started = await wait_start(race)
    await tab.wait_for("() => document.querySelectorAll('#boards .panel .cards').length === 2")
    for seat in (0, 1):
        assert await tab.run(f"([seat]) => ({SHOWN})(seat)", seat) == shown_cards(started.board)
    assert (await tab.run(TEXT, "#clock")).endswith("left")

    line = greedy_line(VARIANT, SEED)
    home = first_progress(line)
    assert await tab.run(f"([seat]) => ({PROGRESS})(seat)", 1) == [0, "0%"]
    await bob.play_all(line[:home])
    progress, width = await tab.wait_for(MOVED, 1)
    assert bob.board is not None and progress == bob.board.progress > 0
    assert width.endswith("%") and float(width[:-1]) > 0
    await tab.wait_for(SHOWS, 1, shown_cards(await board_seen(race, bob)))
    assert await tab.run(TEXT, '#boards [data-seat="1"] .moves') == f"{home} moves"

    await ada.play_all(["draw"] * (line[:home].count("draw") + 2))
    seen = shown_cards(await board_seen(race, ada))
    assert HIDDEN_CARD in seen, "Ada turned up more of the stock than Bob: those cards are hidden"
    await tab.wait_for(SHOWS, 0, seen)
    backs = '#boards [data-seat="0"] .card.back[data-card="??"]'
    assert await tab.run("([s]) => document.querySelectorAll(s).length", backs) == seen.count("??")
    folder = artifact_dir(tmp_path)
    await tab.page.screenshot(path=str(folder / "watch-racing.png"), full_page=True)

    await ada.resign()
    await bob.resign()
    over = await race_over(race)
    await tab.wait_for("() => document.getElementById('seed-check').dataset.ok === 'true'")
    names = (
        "() => Array.from(document.querySelectorAll('#ranking tr'), (r) => r.cells[1].textContent)"
    )
    assert await tab.run(names) == [result.name for result in over.ranking]
    assert hashlib.sha256(SEED).hexdigest()[:16] in await tab.run(TEXT, "#seed-check")
    assert "public deal 7" in await tab.run(TEXT, "#seed")
    await tab.wait_for("() => document.querySelectorAll('.card[data-card=\"??\"]').length === 0")
    analysed = await race.watchers[0].wait_event("deal_analysed")
    assert analysed.verdict.verdict == "undecided"
    await tab.wait_for("() => document.getElementById('verdict').textContent !== ''")
    assert f"within {VERDICT_BUDGET_S} s" in await tab.run(TEXT, "#verdict")
    await tab.page.screenshot(path=str(folder / "watch-results.png"), full_page=True)
    assert (folder / "watch-results.png").read_bytes().startswith(b"\x89PNG")

    assert (await ada.client.call(RequestRematch)).type == "ok"
    await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
    assert await tab.run("() => document.getElementById('results').hidden")
    assert await tab.run("() => document.querySelectorAll('#boards .cards').length") == 0
    assert "race 2" in await tab.run(TEXT, "#room-id")
    assert await tab.run(TEXT, "#banner .last-race span") == "Last race (race 1):"
    assert await tab.run(PLACES) == [
        f"{r.rank}. {r.name} resigned after {tenths(r.elapsed_ms)} with {r.progress}/104 cards home"
        for r in over.ranking
    ]
    assert tab.errors == []


async def racing_page(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any, **viewport: Any
) -> tuple[Race, Tab]:
    """A race under way, watched by a page that shows both boards."""
    race = await open_race(connect, VARIANT, ["Ada", "Bob"], SETTINGS, watchers=0)
    tab = await open_tab(chromium, page_url(server, race.code), **viewport)
    await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
    await ready_all(race)
    await wait_start(race)
    await tab.wait_for("() => document.querySelectorAll('#boards .panel .cards').length === 2")
    return race, tab


VISIBLE = """() => Array.from(document.querySelectorAll('#boards .panel'))
  .filter((p) => p.getBoundingClientRect().width > 0).map((p) => Number(p.dataset.seat))"""


SWIPE = """([dx]) => {
  const boards = document.getElementById("boards");
  const at = (x) => [new Touch({ identifier: 1, target: boards, clientX: x, clientY: 300 })];
  boards.dispatchEvent(new TouchEvent("touchstart", { touches: at(200), changedTouches: at(200) }));
  boards.dispatchEvent(new TouchEvent("touchend", { touches: [], changedTouches: at(200 + dx) }));
}"""


async def test_a_phone_shows_one_board_at_a_time_with_tabs(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any, tmp_path: Path
) -> None:
    race, tab = await racing_page(server, connect, chromium, viewport=PHONE)
    assert await tab.run(VISIBLE) == [0]
    tabs = "() => Array.from(document.querySelectorAll('#tabs .tab-name'), (t) => t.textContent)"
    assert await tab.run(tabs) == ["Ada", "Bob"]
    await tab.page.click('#tabs [data-seat="1"]')
    assert await tab.run(VISIBLE) == [1]
    assert await tab.run("() => document.documentElement.scrollWidth <= window.innerWidth")
    await race.racers[1].play("draw")
    await tab.wait_for(f"() => ({VERSION})(1) === '1'")
    assert await tab.run(VISIBLE) == [1], "a new board keeps the chosen tab"
    await tab.run(SWIPE, 120)
    assert await tab.run(VISIBLE) == [0], "a swipe to the right shows the racer before"
    await tab.run(SWIPE, -120)
    assert await tab.run(VISIBLE) == [1]
    await tab.run(SWIPE, -120)
    assert await tab.run(VISIBLE) == [1], "the last racer has no next"
    await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "watch-phone.png"), full_page=True)
    assert tab.errors == []


async def test_a_wide_screen_shows_the_boards_side_by_side(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    _, tab = await racing_page(server, connect, chromium)
    assert await tab.run(VISIBLE) == [0, 1]
    boxes = """() => Array.from(document.querySelectorAll('#boards .panel'),
      (p) => p.getBoundingClientRect().toJSON())"""
    first, second = await tab.run(boxes)
    assert first["top"] == second["top"] and first["right"] <= second["left"]
    assert not await tab.run("() => document.getElementById('tabs').getBoundingClientRect().height")
    assert tab.errors == []


def page_session(server: RaceServer) -> Any:
    """The server's session of the page: the room's only spectator."""
    (session,) = [s for s in server.sessions if s.place.code is not None and s.place.seat is None]
    return session


async def test_the_page_resumes_after_losing_its_connection(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    race, tab = await racing_page(server, connect, chromium)
    bob = race.racers[1]
    page_session(server).conn.transport.abort()
    await bob.play_all(["draw", "draw"])
    await tab.wait_for("() => document.getElementById('link').textContent === 'live (resumed)'")
    await bob.play("draw")
    await tab.wait_for(f"() => ({VERSION})(1) === '3'")
    assert await tab.run(TEXT, '#boards [data-seat="1"] .moves') == "3 moves"
    waste = '#boards [data-seat="1"] .waste .card'
    cards = "([s]) => Array.from(document.querySelectorAll(s), (c) => c.dataset.card)"
    assert await tab.run(cards, waste) == ["??"] * 3, "Ada has not drawn: Bob's draws are hidden"
    assert tab.errors == []


async def test_the_page_joins_again_when_its_seat_cannot_be_resumed(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any, store: Store
) -> None:
    race, tab = await racing_page(server, connect, chromium)
    session = page_session(server)
    await store.unbind_token(session.place.token_hash, race.code)
    session.conn.transport.abort()
    await race.racers[0].play("draw")
    await tab.wait_for("() => document.body.dataset.link === 'live'")
    await tab.wait_for(f"() => ({VERSION})(0) === '1'")
    assert await tab.run(TEXT, "#link") == "live", "joined again, not resumed"
    assert tab.errors == []


async def test_an_unknown_room_is_reported_and_not_retried(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    tab = await open_tab(chromium, page_url(server, "ZZZZ22"))
    await tab.wait_for("() => document.body.dataset.link === 'stopped'")
    reason = "There is no room ZZZZ22 (it may have expired)."
    assert await tab.run(TEXT, "#link") == reason
    # The page offers the code box, saying why, to type the code again.
    assert await tab.run("() => document.getElementById('pick').hidden") is False
    assert await tab.run(TEXT, "#pick-hint") == reason
    race = await open_race(connect, VARIANT, ["Ada"], SETTINGS, watchers=0)
    await tab.page.fill("#pick-code", race.code.lower())
    async with tab.page.expect_navigation():
        await tab.page.click("#pick-form button")
    assert tab.page.url == page_url(server, race.code)
    await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
    assert tab.errors == []


async def test_the_code_box_leads_to_the_room_page(server: RaceServer, chromium: Any) -> None:
    tab = await open_tab(chromium, f"http://127.0.0.1:{server.port}/watch")
    assert tab.page.url.endswith("/watch/")
    shown = "([s]) => document.querySelector(s).getBoundingClientRect().height > 0"
    assert not await tab.run(shown, "#link"), "the code box connects to nothing"
    assert not await tab.run(shown, ".legend")
    await tab.page.fill("#pick-code", "abc2i4")
    await tab.page.click("#pick-form button")
    assert "6 characters of" in await tab.run(TEXT, "#pick-hint")
    await tab.page.fill("#pick-code", f"http://127.0.0.1:{server.port}/watch/zzzz22")
    async with tab.page.expect_navigation():
        await tab.page.click("#pick-form button")
    assert tab.page.url.endswith("/watch/ZZZZ22"), "a pasted link leads to its room"
    await tab.wait_for("() => document.body.dataset.link === 'stopped'")
    assert await tab.run(TEXT, "#pick-hint") == "There is no room ZZZZ22 (it may have expired)."
    assert tab.errors == []


RANKS = """() => Array.from(document.querySelectorAll('#ranking tr'),
  (row) => [row.cells[0].textContent, row.cells[1].textContent])"""


async def test_a_page_opened_after_the_race_ranks_its_players(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    race = await open_race(connect, VARIANT, ["Ada", "Bob", "Cy"], SETTINGS, watchers=0)
    ada, bob, cy = race.racers
    await start(race)
    line = greedy_line(VARIANT, SEED)
    await bob.play_all(line[: first_progress(line)])
    for racer in (cy, bob, ada):
        await racer.resign()
    over = await race_over(race)
    assert [result.name for result in over.ranking] == ["Bob", "Ada", "Cy"]

    tab = await open_tab(chromium, page_url(server, race.code))
    await tab.wait_for("() => document.querySelectorAll('#ranking tr').length === 3")
    # The join reply brings the results: Ada reached her count before Cy, which the
    # room alone does not say.
    assert await tab.run(RANKS) == [["1", "Bob"], ["2", "Ada"], ["3", "Cy"]]
    assert (await tab.run(TEXT, "#clock")).startswith("finished in ")
    assert tab.errors == []


BADGES = "() => Array.from(document.querySelectorAll('#boards .badge'), (b) => b.textContent)"
OUTCOME_CELLS = (
    "() => Array.from(document.querySelectorAll('#ranking tr'), (r) => r.cells[2].textContent)"
)


async def test_a_race_the_host_ends_early_is_shown_as_ended_by_the_host(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any, tmp_path: Path
) -> None:
    race, tab = await racing_page(server, connect, chromium)
    ada, bob = race.racers
    await bob.play("draw")
    assert race.started is not None
    race.advance_to(race.started.start_at_ms + 7_000)
    assert (await ada.client.call(EndRace)).type == "ok"
    await race_over(race)
    said = "The host, Ada, ended the race early at 0:07.0: those still racing stopped."
    await tab.wait_for(f"() => ({TEXT})(['#ended']) === {said!r}")
    stopped = ["stopped by the host"] * 2
    assert await tab.run(OUTCOME_CELLS) == stopped
    assert await tab.run(BADGES) == stopped
    assert "the host ended it early" in await tab.run(TEXT, "#banner")
    await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "watch-host-end.png"))
    later = await open_tab(chromium, page_url(server, race.code))
    await later.wait_for("() => document.querySelectorAll('#ranking tr').length === 2")
    assert await later.run(TEXT, "#ended") == said, "the join reply's results say it too"
    assert await later.run(OUTCOME_CELLS) == stopped
    assert (await ada.client.call(RequestRematch)).type == "ok"
    last = "Last race (race 1), ended early by the host, Ada, at 0:07.0:"
    places = [f"{n}. {name} was stopped by the host after 0:07.0 with 0/104 cards home"
              for n, name in ((1, "Ada"), (2, "Bob"))]  # fmt: skip
    after = await open_tab(chromium, page_url(server, race.code))
    for page in (tab, after):
        await page.wait_for("() => document.querySelector('#banner .last-race')")
        assert await page.run(TEXT, "#banner .last-race span") == last
        assert await page.run(PLACES) == places
    await after.page.screenshot(path=str(artifact_dir(tmp_path) / "watch-last-race.png"))
    assert tab.errors == later.errors == after.errors == []


async def test_a_race_that_ends_otherwise_says_nothing_of_the_host(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    race, tab = await racing_page(server, connect, chromium)
    assert race.started is not None
    race.advance_to(race.started.ends_at_ms)
    await race_over(race)
    await tab.wait_for("() => document.querySelectorAll('#ranking tr').length === 2")
    assert await tab.run(OUTCOME_CELLS) == ["timed out"] * 2
    assert await tab.run("() => document.getElementById('ended').hidden")
    assert "host" not in await tab.run(TEXT, "#banner")
    assert tab.errors == []


async def test_a_racer_who_leaves_keeps_the_outcome_of_their_race(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    race, tab = await racing_page(server, connect, chromium)
    ada, bob = race.racers
    await bob.resign()
    await tab.wait_for(f'() => JSON.stringify(({BADGES})()) === \'["racing","resigned"]\'')
    await bob.client.close()
    await ada.client.close()
    await tab.wait_for(f"() => ({BADGES})()[0] === 'away'")
    assert await tab.run(BADGES) == ["away", "resigned"], "Ada left racing; Bob had resigned"
    assert tab.errors == []


async def test_a_spectator_delay_is_told_beside_live_counts_and_late_boards(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    delayed = SETTINGS.model_copy(update={"spectator_delay_s": 5})
    race = await open_race(connect, VARIANT, ["Ada", "Bob"], delayed, watchers=0)
    tab = await open_tab(chromium, page_url(server, race.code))
    await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
    assert await tab.run("() => document.querySelector('#banner .delay')") is None
    await start(race)
    await tab.wait_for("() => document.body.dataset.phase === 'racing'")
    note = await tab.run(TEXT, "#banner .delay")
    assert note == "boards are shown 5 s late; cards home and moves are live"
    bob = race.racers[1]
    await bob.play("draw")
    await tab.wait_for(f"() => ({TEXT})(['#boards [data-seat=\"1\"] .moves']) === '1 move'")
    assert await tab.run(VERSION, 1) == "0", "the board is not due yet"
    race.advance_to(server.clock.now_ms() + 5000)
    await tab.wait_for(f"() => ({VERSION})(1) === '1'")
    assert tab.errors == []


ACTIVE_TAB = """() => {
  const active = document.querySelector('#tabs .tab.active');
  const rect = active.getBoundingClientRect();
  return [rect.left >= 0 && rect.right <= window.innerWidth, active.firstChild.textContent];
}"""


async def test_a_swipe_brings_the_racers_tab_into_sight(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    names = [f"Racer with a long name {n}" for n in range(4)]
    race = await open_race(connect, VARIANT, names, SETTINGS, watchers=0)
    tab = await open_tab(chromium, page_url(server, race.code), viewport=PHONE)
    await tab.wait_for("() => document.querySelectorAll('#tabs .tab').length === 4")
    await start(race)
    await tab.wait_for("() => document.querySelectorAll('#boards .panel .cards').length === 4")
    assert await tab.run("() => document.getElementById('tabs').scrollWidth > window.innerWidth")
    for _ in names[1:]:
        await tab.run(SWIPE, -120)
    assert await tab.run(VISIBLE) == [3]
    assert await tab.run(ACTIVE_TAB) == [True, names[3]]
    await race.racers[3].play("draw")
    await tab.wait_for(f"() => ({VERSION})(3) === '1'")
    assert await tab.run(ACTIVE_TAB) == [True, names[3]], "drawing the page again keeps it in sight"
    for _ in names[1:]:
        await tab.run(SWIPE, 120)
    assert await tab.run(ACTIVE_TAB) == [True, names[0]]
    assert await tab.run("() => window.scrollY") == 0, "only the row of tabs scrolls"
    assert tab.errors == []


async def test_a_long_name_fits_the_results_on_a_phone(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    long_name = "W" * 24  # the longest name a player may take, with nowhere to break
    race = await open_race(connect, VARIANT, ["Ada", long_name], SETTINGS, watchers=0)
    tab = await open_tab(chromium, page_url(server, race.code), viewport=PHONE)
    await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
    await start(race)
    for racer in race.racers:
        await racer.resign()
    await race_over(race)
    await tab.wait_for("() => document.querySelectorAll('#ranking tr').length === 2")
    assert await tab.run(RANKS) == [["1", "Ada"], ["2", long_name]]
    assert await tab.run("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert tab.errors == []


async def test_a_phone_shows_every_racer_before_the_race(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    race = await open_race(connect, VARIANT, ["Ada", "Bob", "Cy"], SETTINGS, watchers=0)
    tab = await open_tab(chromium, page_url(server, race.code), viewport=PHONE)
    await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
    tabs = "() => document.getElementById('tabs').getBoundingClientRect().height"
    assert await tab.run(VISIBLE) == [0, 1, 2]
    assert not await tab.run(tabs), "no tabs while every panel shows"
    await ready_all(race)
    await tab.wait_for("() => document.body.dataset.phase === 'countdown'")
    assert await tab.run(VISIBLE) == [0, 1, 2]
    await wait_start(race)
    await tab.wait_for("() => document.querySelectorAll('#boards .panel .cards').length === 3")
    assert await tab.run(VISIBLE) == [0], "one board at a time once the race is on"
    assert await tab.run(tabs)
    assert tab.errors == []


async def test_a_page_refused_for_too_many_joins_joins_again_after_the_wait(
    store: Store, clock: ManualClock, chromium: Any
) -> None:
    async with (
        serve(store, clock, joins_burst=1, joins_per_minute=60.0) as limited,
        opened_clients(Client.open, limited) as connect,
    ):
        race = await open_race(connect, VARIANT, ["Ada"], SETTINGS, watchers=0)
        first = await open_tab(chromium, page_url(limited, race.code))
        await first.wait_for("() => document.body.dataset.link === 'live'")
        second = await open_tab(chromium, page_url(limited, race.code))
        waiting = "too many joins from this address just now; joining again in 1 s"
        await second.wait_for(f"() => ({TEXT})(['#link']) === '{waiting}'")
        assert await second.run("() => document.body.dataset.link") == "connecting"
        race.advance_to(clock.now_ms() + 1000)
        await second.wait_for("() => document.body.dataset.phase === 'lobby'")
        assert await second.run(TEXT, "#link") == "live"
        assert first.errors == second.errors == []


IDLE_S = 30
IDLE = """(seat) => {
  const panel = document.querySelector(`#boards [data-seat="${seat}"]`);
  const warning = panel.querySelector(".idle");
  const tab = document.querySelector(`#tabs [data-seat="${seat}"] .tab-idle`);
  const at = warning && Number(warning.dataset.timeoutAt);
  return [warning && warning.textContent, at, tab !== null];
}"""
"""A racer's idle warning: its text, the instant it names, and whether their tab says so."""
NOT_WARNED = [None, None, False]
WARNING = re.compile(r"Idle too long: times out in \d+:\d\d unless they move")


async def test_an_idle_racer_is_shown_warned_until_they_move_or_time_out(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any, tmp_path: Path
) -> None:
    idle = SETTINGS.model_copy(update={"idle_limit_s": IDLE_S})
    race = await open_race(connect, VARIANT, ["Ada", "Bob"], idle, watchers=1)
    ada, bob = race.racers
    tab = await open_tab(chromium, page_url(server, race.code))
    await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
    began = (await start(race)).start_at_ms
    await ada.resign()
    race.advance_to(began + (IDLE_S - IDLE_WARNING_S) * 1000)
    warned = await race.watchers[0].wait_event("idle_warning")
    text, timeout_at, on_tab = await tab.wait_for(
        f"([seat]) => ({IDLE})(seat)[0] && ({IDLE})(seat)", 1
    )
    assert WARNING.fullmatch(text), text
    assert (timeout_at, on_tab) == (warned.timeout_at_ms, True)
    assert await tab.run(f"([seat]) => ({IDLE})(seat)", 0) == NOT_WARNED, "Ada has resigned"
    await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "watch-idle.png"), full_page=True)
    late = await open_tab(chromium, page_url(server, race.code))
    shown = "document.querySelector('#boards [data-seat=\"1\"] .idle')"
    told = await late.wait_for(f"([seat]) => {shown} && ({IDLE})(seat)", 1)
    assert WARNING.fullmatch(told[0]), told
    assert told[1:] == [warned.timeout_at_ms, True], "a page opened after the warning"

    await bob.play(greedy_line(VARIANT, SEED)[0])
    await tab.wait_for(f"([seat]) => JSON.stringify(({IDLE})(seat)) === '[null,null,false]'", 1)
    moved_at = server.clock.now_ms()
    race.advance_to(moved_at + (IDLE_S - IDLE_WARNING_S) * 1000)
    again = await race.watchers[0].wait_event("idle_warning", lambda e: e != warned)
    await tab.wait_for(f"([seat, at]) => ({IDLE})(seat)[1] === at", 1, again.timeout_at_ms)

    race.advance_to(again.timeout_at_ms + 1000)
    await race_over(race)
    # Timed out with most of the race's time left: not "out of time".
    await tab.wait_for(f"() => ({BADGES})()[1] === 'timed out'")
    assert await tab.run(f"([seat]) => ({IDLE})(seat)", 1) == NOT_WARNED
    # The badge may show the finish before the page has the ranking.
    await tab.wait_for("() => document.querySelectorAll('#ranking tr').length === 2")
    result = "() => document.querySelector('#ranking tr:nth-child(2)').cells[2].textContent"
    assert await tab.run(result) == "timed out"
    assert tab.errors == []


SEEN_LINK = """() => {
  window.linkTexts = [];
  const link = document.getElementById("link");
  new MutationObserver(() => window.linkTexts.push(link.textContent))
    .observe(link, { childList: true, characterData: true, subtree: true });
}"""
"""Keep every text the link's status shows from now on, in `window.linkTexts`."""


async def test_a_server_restart_is_told_and_the_page_resumes_on_the_new_server(
    store: Store, open_store: OpenStore, clock: ManualClock, chromium: Any
) -> None:
    async with serve(store, clock) as first, opened_clients(Client.open, first) as connect:
        race, tab = await racing_page(first, connect, chromium)
        await race.racers[1].play("draw")
        await tab.wait_for(f"() => ({VERSION})(1) === '1'")
        port = first.port
        await tab.run(SEEN_LINK)
    await tab.wait_for("() => document.body.dataset.link === 'reconnecting'")
    async with serve(await open_store(), clock, port=port):
        await tab.wait_for("() => document.getElementById('link').textContent === 'live (resumed)'")
        texts = await tab.run("() => window.linkTexts")
        assert await tab.run(VERSION, 1) == "1", "the board seen before the restart stays"
    waits = [text for text in texts if "reconnecting in" in text]
    assert waits and all(text.startswith("the server is restarting;") for text in waits), texts
    assert tab.errors == []


async def test_the_lobby_tells_the_seats_left_and_the_races_terms(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any, tmp_path: Path
) -> None:
    terms = SETTINGS.model_copy(update={"max_players": 3, "idle_limit_s": 60})
    race = await open_race(connect, VARIANT, ["Ada", "Bob"], terms, watchers=0)
    tab = await open_tab(chromium, page_url(server, race.code), viewport=PHONE)
    await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
    banner = await tab.run("() => document.getElementById('banner').innerText")
    assert banner.splitlines() == [
        "In the lobby \u2014 2 of 3 seats taken, 2 not ready yet",
        "public deal 7 \u00b7 15:00 time limit \u00b7 idle limit 60 s once someone has finished",
    ]
    await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "watch-lobby.png"), full_page=True)
    await ready_all(race)
    await tab.wait_for("() => document.body.dataset.phase === 'countdown'")
    assert "15:00 time limit" in await tab.run(TEXT, "#banner .terms")
    assert tab.errors == []


async def test_a_room_that_closes_under_the_page_keeps_its_results_on_show(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any, store: Store
) -> None:
    race, tab = await racing_page(server, connect, chromium)
    for racer in race.racers:
        await racer.resign()
    await race_over(race)
    await tab.wait_for("() => document.querySelectorAll('#ranking tr').length === 2")
    assert await tab.run(TEXT, "#spectators") == "1 watching"
    await store.expire_room(race.code, 0)
    page_session(server).conn.transport.abort()
    await tab.wait_for("() => document.body.dataset.link === 'stopped'")
    said = f"Room {race.code} has closed; this is how it last stood."
    assert await tab.run(TEXT, "#link") == said
    assert await tab.run("() => document.getElementById('pick').hidden"), "no code box over it"
    assert await tab.run("() => document.querySelectorAll('#ranking tr').length") == 2
    assert await tab.run(TEXT, "#spectators") == "", "nobody is counted any more"
    assert tab.errors == []


BEHIND = re.compile(r"live \u00b7 boards (9|10) s behind: this connection is slow")
"""Nine seconds late, and less than one second more for the test to run."""


async def test_a_page_whose_boards_come_late_says_it_is_behind(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], chromium: Any
) -> None:
    race = await open_race(connect, VARIANT, ["Ada", "Bob"], SETTINGS, watchers=0)
    await start(race)
    page = await chromium.new_page()
    await page.clock.install()  # the page's clock, to run it ahead of the server's
    tab = Tab(page)
    page.on("pageerror", lambda error: tab.errors.append(f"uncaught: {error}"))
    await page.goto(page_url(server, race.code))
    await tab.wait_for("() => document.querySelectorAll('#boards .panel .cards').length === 2")
    race.advance_to(server.clock.now_ms() + 1000)  # moves made after the page joined
    bob = race.racers[1]
    await bob.play("draw")
    await tab.wait_for(f"() => ({VERSION})(1) === '1'")
    assert await tab.run(TEXT, "#link") == "live"
    # Ten seconds pass for the page while the server's clock stands: Bob's next board,
    # stamped at the server's now, reaches the page nine seconds after his move.
    await page.clock.fast_forward(10_000)
    await bob.play("draw")
    await tab.wait_for(f"() => ({VERSION})(1) === '2'")
    said = await tab.wait_for(f"() => ({TEXT})(['#link']) !== 'live' && ({TEXT})(['#link'])")
    assert BEHIND.fullmatch(said), said
    race.advance_to(server.clock.now_ms() + 10_000)
    await bob.play("draw")
    await tab.wait_for(f"() => ({TEXT})(['#link']) === 'live'")
    assert tab.errors == []
