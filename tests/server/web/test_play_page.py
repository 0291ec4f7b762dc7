"""The play page in a real browser: friends race from the link, against a terminal client.

A server on the test's manual clock holds a Little Milligan room on a public deal;
headless Chromium opens ``/play/CODE`` for each browser player, who types a name, says
ready and plays a fixed line (the engine's solver's winning line of that deal) with
clicks, drags or keys. The page shows only boards the server sent (every move waits for
its ``move_ok``), so what it draws is held against the engine's own replay of the line.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
from protocol import BoardView, CreateAccount, CreateRoom, JoinRoom, MakeMove, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.conn.session import Session
from server.store import Store
from tests.client_cli._driver import Terminal
from tests.server._browser import PHONE, artifact_dir, browser, open_tab
from tests.server._client import Client
from tests.server._players import serve
from tests.server.web._play import (
    LOBBY_SAID,
    PHASE,
    SAID,
    STEP,
    VERSION,
    assert_own_boards_only,
    click_move,
    create,
    join,
    key_move,
    play_url,
    ready,
    record_frames,
    seated_race,
    solver_line,
)

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


async def test_a_friend_takes_a_seat_from_the_watch_pages_link(
    server: RaceServer, clock: ManualClock, chromium: Any, tmp_path: Path
) -> None:
    host, code = await host_room(server, clock)
    tab = await open_tab(chromium, f"http://127.0.0.1:{server.port}/watch/{code}", PHONE)
    frames = record_frames(tab)
    await tab.page.click("#play-here")
    assert await tab.run("() => location.href") == play_url(server.port, code)
    await join(tab, "Cleo")
    await tab.wait_for(PHASE, "lobby")
    seats = await tab.run(
        "() => Array.from(document.querySelectorAll('#seats li'), (li) => li.textContent)"
    )
    assert seats == ["Hosthostnot ready", "Cleoyounot ready"]
    await tab.page.screenshot(
        path=str(artifact_dir(tmp_path) / "play-lobby-phone.png"), full_page=True
    )
    assert tab.errors == []
    assert frames
    await host.close()


def from_chromium(session: Session) -> bool:
    request = session.conn.request
    return request is not None and "Chrome" in request.headers.get("User-Agent", "")


def winning_line() -> list[str]:
    """The solver's winning line of the deal."""
    return solver_line(VARIANT, SEED)


def cards_shown(board: engine.View) -> list[str]:
    """The face-up cards the page draws of a board, in its order (as shown_cards)."""
    view = BoardView.from_engine(board)
    cards = [top for top in view.foundations if top is not None]
    return cards + [card for pile in view.tableau for card in pile]


SHOWN = (
    "() => Array.from(document.querySelectorAll('#table .card[data-card]'), (c) => c.dataset.card)"
)
RACER = """([seat]) => {
  const line = document.querySelector(`#racers [data-seat="${seat}"]`);
  return line && [line.dataset.outcome, line.querySelector('.racer-moves').textContent];
}"""


async def test_two_browsers_and_a_terminal_race_to_the_results(
    server: RaceServer, clock: ManualClock, chromium: Any, tmp_path: Path
) -> None:
    line = winning_line()
    folder = artifact_dir(tmp_path)
    ada = await open_tab(chromium, play_url(server.port))
    ada_frames = record_frames(ada)
    await ada.wait_for(STEP, "create")
    await ada.page.fill("#create-name", "Ada")
    await ada.page.select_option("#create-settings [name=variant]", VARIANT)
    await ada.page.fill("#create-settings [name=deal_number]", str(DEAL))
    await ada.page.click("#create-room")
    await ada.wait_for(STEP, "room")
    link = await ada.run("() => document.getElementById('play-link').href")
    code = link.rsplit("/", 1)[1]
    assert link == play_url(server.port, code)
    assert await ada.run("() => location.pathname") == f"/play/{code}"

    bob = await open_tab(chromium, link, PHONE)
    bob_frames = record_frames(bob)
    await join(bob, "Bob")
    cleo = Terminal(f"ws://127.0.0.1:{server.port}")
    cleo.start(lambda id_: JoinRoom(id=id_, code=code, name="Cleo"))
    await cleo.wait_for("Play it in a browser")
    seats = "() => document.querySelectorAll('#seats li').length"
    for tab in (ada, bob):
        await tab.wait_for(f"() => ({seats})() === 3")
    await ada.page.screenshot(path=str(folder / "race-lobby-desktop.png"), full_page=True)

    await ready(ada)
    await ready(bob)
    await cleo.type("ready", expect="race 1 starts in")
    commit = hashlib.sha256(SEED).hexdigest()
    for tab in (ada, bob):
        await tab.wait_for(PHASE, "countdown")
        assert commit in await tab.run(
            "() => document.querySelector('#banner .commit').textContent"
        )
    clock.advance(3000)
    for tab in (ada, bob):
        await tab.wait_for(PHASE, "racing")
    await cleo.wait_for("Race 1: GO!")
    game = engine.new_game(VARIANT, SEED)
    assert await ada.run(SHOWN) == cards_shown(engine.view(game))

    for move in line[:3]:
        await key_move(bob, move)
    await bob.wait_for("() => document.getElementById('table').dataset.version === '3'")
    await bob.page.screenshot(path=str(folder / "race-phone-bob.png"), full_page=True)
    for move in line[:2]:
        await cleo.type(move)
    await ada.wait_for(f'() => JSON.stringify(({RACER})([2])) === \'["playing","2 moves"]\'')
    for i, move in enumerate(line):
        await click_move(ada, move)
        game = engine.apply(game, engine.Move.parse(move))
        if i == 10:
            assert await ada.run(SHOWN) == cards_shown(engine.view(game))
            await ada.page.screenshot(path=str(folder / "race-desktop-ada.png"), full_page=True)
    await bob.page.keyboard.press("x")
    await bob.page.keyboard.press("x")
    await cleo.type("resign", expect="You resigned after")
    for tab in (ada, bob):
        await tab.wait_for(PHASE, "finished")
        await tab.wait_for("() => document.getElementById('seed-check').dataset.ok === 'true'")
    ranking = await bob.run(
        "() => Array.from(document.querySelectorAll('#ranking tr'),"
        " (tr) => [tr.cells[1].textContent, tr.cells[2].textContent])"
    )
    assert ranking[0] == ["Ada", "won"]
    assert {name for name, _ in ranking[1:]} == {"Bob", "Cleo"}
    logged = await bob.run(
        "() => document.querySelector('#logs [data-seat=\"0\"] .log-moves').textContent"
    )
    assert len(logged.split(" \u00b7 ")) == len(line)
    await bob.page.screenshot(path=str(folder / "race-results-phone.png"), full_page=True)

    await ada.page.click("#rematch")
    for tab in (ada, bob):
        await tab.wait_for(PHASE, "lobby")
    await cleo.close()
    assert ada.errors == bob.errors == []
    assert_own_boards_only(ada_frames, 0, VARIANT, SEED)
    assert_own_boards_only(bob_frames, 1, VARIANT, SEED)


async def test_a_reload_mid_race_takes_the_seat_back_with_nothing_lost(
    server: RaceServer, clock: ManualClock, chromium: Any
) -> None:
    line = winning_line()
    host = await Client.open(f"ws://127.0.0.1:{server.port}", clock)
    tab = await open_tab(chromium, "about:blank")
    await seated_race(host, server.port, tab, clock, variant=VARIANT, deal=DEAL)
    for move in line[:4]:
        await click_move(tab, move)
    before = await tab.run(SHOWN)
    await tab.page.reload()
    await tab.wait_for(PHASE, "racing")
    await tab.wait_for("() => document.getElementById('table').dataset.version === '4'")
    assert await tab.run(SHOWN) == before
    assert await tab.run("() => document.body.dataset.step") == "room"
    await key_move(tab, line[4])
    game = engine.replay(VARIANT, SEED, line[:5])
    assert await tab.run(SHOWN) == cards_shown(engine.view(game))
    assert await tab.run(f"() => ({RACER})([1])") == ["playing", "5 moves"]

    # A dropped connection: the page reconnects by itself, resumes the seat and gets
    # what it missed meanwhile (the host's first move).
    (page_session,) = [session for session in server.sessions if from_chromium(session)]
    await page_session.conn.close(1011, "dropped by the test")
    await tab.wait_for("() => document.body.dataset.link !== 'live'")
    reply = await host.call(MakeMove, move="deal", move_id="h1", expected_version=0)
    assert reply.type == "move_ok", reply
    await tab.wait_for(f'() => JSON.stringify(({RACER})([0])) === \'["playing","1 move"]\'')
    await tab.wait_for("() => document.body.dataset.link === 'live'")
    await click_move(tab, line[5])
    game = engine.replay(VARIANT, SEED, line[:6])
    assert await tab.run(SHOWN) == cards_shown(engine.view(game))
    assert tab.errors == []
    await host.close()


async def test_a_refused_move_says_why_and_changes_nothing(
    server: RaceServer, clock: ManualClock, chromium: Any
) -> None:
    host = await Client.open(f"ws://127.0.0.1:{server.port}", clock)
    tab = await open_tab(chromium, "about:blank", PHONE)
    frames = record_frames(tab)
    await seated_race(host, server.port, tab, clock, variant=VARIANT, deal=DEAL)
    game = engine.new_game(VARIANT, SEED)
    legal = {move.format() for move in engine.legal_moves(game)}
    board = BoardView.from_engine(engine.view(game))
    wrong = next(
        (i, j)
        for i in range(len(board.tableau))
        for j in range(len(board.tableau))
        if i != j and not any(m.startswith(f"t{i + 1}") and m.endswith(f" t{j + 1}") for m in legal)
    )
    before = await tab.run(SHOWN)
    await tab.page.locator(f'#table [data-target="t{wrong[0]}"]').click()
    await tab.wait_for("() => document.querySelectorAll('#table .card.held').length === 1")
    await tab.page.locator(f'#table [data-target="t{wrong[1]}"]').click()
    said = await tab.wait_for(f"() => ({SAID})().startsWith('Refused') && ({SAID})()")
    refusal = next(f for f in frames if f["type"] == "error")
    assert refusal["code"] == "move/illegal"
    assert said == f"Refused: {refusal['message']}"
    assert await tab.run("() => document.getElementById('table').classList.contains('refused')")
    assert await tab.run(SHOWN) == before
    assert await tab.run(VERSION) == "0"
    assert await tab.run("() => document.querySelectorAll('#table .card.held').length") == 0
    assert not any(f["type"] == "move_ok" for f in frames)
    assert tab.errors == []
    await host.close()


async def test_the_host_changes_the_settings_and_an_account_key_signs_a_friend_in(
    server: RaceServer, clock: ManualClock, chromium: Any
) -> None:
    ada = await open_tab(chromium, play_url(server.port))
    await create(ada, "Ada")
    code = (await ada.run("() => location.pathname")).rsplit("/", 1)[1]
    await ada.page.select_option("#host-settings [name=variant]", "little-billie")
    await ada.page.fill("#host-settings [name=minutes]", "5")
    await ada.page.fill("#host-settings [name=deal_number]", "")
    await ada.page.check("#host-settings [name=rated]")
    await ada.page.click("#settings-form button[type=submit]")
    terms = "() => document.getElementById('terms').textContent"
    said = await ada.wait_for(f"() => ({terms})().startsWith('Little Billie') && ({terms})()")
    assert said.startswith("Little Billie \u00b7 secret deal \u00b7 5:00 time limit \u00b7 rated")

    maker = await Client.open(f"ws://127.0.0.1:{server.port}", clock)
    made = await maker.call(CreateAccount, name="Bea")
    assert made.type == "account_created", made
    await maker.close()
    bea = await open_tab(chromium, play_url(server.port, code), PHONE)
    await bea.wait_for(STEP, "join")
    await bea.page.fill("#join-key", made.key)
    await bea.page.check("#join-remember")
    await bea.page.click("#join-form button[type=submit]")
    await bea.wait_for(STEP, "room")
    seats = "() => Array.from(document.querySelectorAll('#seats .seat-name'), (n) => n.textContent)"
    assert await bea.run(seats) == ["Ada", "Bea"]
    marks = "() => Array.from(document.querySelectorAll('#seats .seat-mark'), (n) => n.textContent)"
    assert "guest" in await bea.run(marks)
    assert await bea.run("() => localStorage.getItem('solrace.key')") == made.key
    assert await bea.run("() => document.getElementById('settings-form').hidden")
    # A rated race cannot be on a public deal: the server refuses, and the page says why.
    await ada.page.fill("#host-settings [name=deal_number]", "4")
    await ada.page.click("#settings-form button[type=submit]")
    await ada.wait_for(f"() => ({LOBBY_SAID})().startsWith('Refused: ')")
    assert (await ada.run(terms)).startswith("Little Billie \u00b7 secret deal")
    assert ada.errors == bea.errors == []


async def test_reduced_motion_keeps_the_board_still_and_cards_say_what_they_are(
    server: RaceServer, clock: ManualClock, chromium: Any
) -> None:
    host = await Client.open(f"ws://127.0.0.1:{server.port}", clock)
    tab = await open_tab(chromium, "about:blank")
    await tab.page.emulate_media(reduced_motion="reduce")
    await seated_race(host, server.port, tab, clock, variant=VARIANT, deal=DEAL)
    labels = await tab.run(
        "() => Array.from(document.querySelectorAll('#table .card.face'),"
        " (c) => c.getAttribute('aria-label'))"
    )
    assert labels[0] == "eight of diamonds"  # pile 1 of deal 3 is the 8 of diamonds alone
    rank = "ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king"
    assert all(re.fullmatch(f"({rank}) of (clubs|diamonds|hearts|spades)", x) for x in labels)
    pile = await tab.run(
        "() => document.querySelector('#table [data-target=\"t0\"]').getAttribute('aria-label')"
    )
    assert pile == "pile 1: 1 card, top eight of diamonds, key 1"
    # Every action by keyboard: a pile is a button that Enter picks up, Escape lets go.
    held = "() => document.querySelectorAll('#table .card.held').length"
    await tab.page.locator('#table [data-target="t0"]').focus()
    await tab.page.keyboard.press("Enter")
    await tab.wait_for(f"() => ({held})() === 1")
    await tab.page.keyboard.press("Escape")
    await tab.wait_for(f"() => ({held})() === 0")
    await tab.page.locator("#stock-action").focus()
    await tab.page.keyboard.press("Tab")
    assert await tab.run("() => document.activeElement.id") == "all-home"
    await tab.run("() => document.getElementById('table').classList.add('refused')")
    style = "() => getComputedStyle(document.getElementById('table')).animationName"
    assert await tab.run(style) == "none"
    assert tab.errors == []
    await host.close()
