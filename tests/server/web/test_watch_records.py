"""The watch page's results lead to the records: each account's name to its profile,
the game to its leaderboards, and a rated race shows each account's rating change.

A real race of two signed-in accounts and a guest on a public deal is watched in
headless Chromium; a ``race_rated`` event is held against the page's own room and
results code; and a real rated race of two accounts is followed from the watch
page to a profile and the game's board, all written by the race's records.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from protocol import CreateAccount, JoinRoom, RaceRated, RatingChange, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.server._browser import PHONE, artifact_dir, browser, code_box, open_tab
from tests.server._client import Client
from tests.server._players import (
    Race,
    greedy_line,
    open_race,
    pin_secrets,
    race_over,
    secret_deal,
    serve,
    start,
)
from tests.server.conftest import opened_clients

VARIANT = "little-forty"
SETTINGS = Settings(countdown_s=3, deal_number=7)
NAMES = """() => Array.from(document.querySelectorAll('#ranking tr'), (row) => {
  const link = row.cells[1].querySelector('a');
  return [row.cells[1].textContent, link && new URL(link.href).pathname];
})"""
ROWS = """([selector]) => Array.from(document.querySelectorAll(`${selector} tbody tr`),
  (row) => Array.from(row.cells, (cell) => cell.textContent))"""
MARKS = """() => Array.from(document.querySelectorAll('#boards .panel'), (panel) => {
  const mark = panel.querySelector('.seat-mark');
  return [panel.querySelector('.name').firstChild.textContent, mark && mark.textContent];
})"""
MOTION = "() => getComputedStyle(document.querySelector('.progress .fill')).transitionDuration"
BOARD_LINKS = """() => Array.from(document.querySelectorAll('#board-links a'),
  (a) => [a.textContent, new URL(a.href).pathname + new URL(a.href).search])"""


@pytest.fixture
async def server(store: Store, clock: ManualClock) -> AsyncIterator[RaceServer]:
    async with serve(store, clock) as running:
        yield running


@pytest.fixture
async def connect(server: RaceServer) -> AsyncIterator[Callable[[], Awaitable[Client]]]:
    async with opened_clients(Client.open, server) as open_:
        yield open_


async def finished_race(connect: Callable[[], Awaitable[Client]]) -> Race:
    """Ada and Bob (accounts) and Cy (a guest) raced deal 7 and resigned."""
    signed = []
    for name in ("Ada", "Bob"):
        client = await connect()
        assert (await client.call(CreateAccount, name=name)).type == "account_created"
        signed.append(client)

    async def seat() -> Client:
        return signed.pop(0) if signed else await connect()

    race = await open_race(seat, VARIANT, ["Ada", "Bob", "Cy"], SETTINGS, watchers=0)
    await start(race)
    for racer in race.racers:
        await racer.resign()
    await race_over(race)
    return race


async def test_an_accounts_name_leads_to_its_profile_and_the_game_to_its_boards(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], tmp_path: Path
) -> None:
    race = await finished_race(connect)
    async with browser() as chromium:
        tab = await open_tab(chromium, f"http://127.0.0.1:{server.port}/watch/{race.code}", PHONE)
        await tab.wait_for("() => document.querySelectorAll('#ranking tr').length === 3")
        assert sorted(await tab.run(NAMES)) == [
            ["Ada", "/players/Ada"],
            ["Bob", "/players/Bob"],
            ["Cy", None],
        ], "a guest has no profile"
        assert await tab.run(BOARD_LINKS) == [
            ["Little Forty leaderboard", "/leaderboard/little-forty"],
            ["fastest wins of deal 7", "/leaderboard/little-forty?deal=7"],
        ]
        assert await tab.run("() => document.getElementById('rating-head').hidden")
        assert await tab.run(MARKS) == [["Ada", None], ["Bob", None], ["Cy", "guest"]]
        assert await tab.run(MOTION) == "0.35s"
        await tab.page.emulate_media(reduced_motion="reduce")
        assert await tab.run(MOTION) == "0s", "no motion for a reader who asks for none"
        assert await tab.run("() => document.documentElement.scrollWidth <= window.innerWidth")
        shot = artifact_dir(tmp_path) / "watch-results-links.png"
        await tab.page.screenshot(path=str(shot), full_page=True)
        await tab.page.focus("#ranking a:text-is('Bob')")
        async with tab.page.expect_navigation():
            await tab.page.keyboard.press("Enter")
        await tab.wait_for("() => document.body.dataset.state === 'shown'")
        assert await tab.run("() => document.querySelector('h1').textContent") == "Bob"
        assert tab.errors == []


RATED = """async ([room, seq, results, rated]) => {
  const { Watch } = await import("./static/room.js");
  const { renderResults } = await import("./static/results.js");
  const watch = new Watch(room.code);
  watch.replace(room, seq, results);
  watch.onEvent(seq + 1, rated);
  renderResults(watch);
  document.getElementById("pick").hidden = true;
  document.getElementById("stage").hidden = false;
  const cells = (row) => Array.from(row.cells, (cell) => cell.hidden ? null : cell.textContent);
  const head = document.getElementById("rating-head");
  return [head.hidden, Array.from(document.querySelectorAll("#ranking tr"), cells)];
}"""


async def test_a_rated_race_shows_each_accounts_rating_change(
    server: RaceServer, connect: Callable[[], Awaitable[Client]], tmp_path: Path
) -> None:
    race = await finished_race(connect)
    joined = await (await connect()).call(JoinRoom, code=race.code, name="web", role="spectator")
    seats = {player.name: player.seat for player in joined.room.players}
    rated = RaceRated(
        race_no=1,
        changes=(
            RatingChange(seat=seats["Ada"], name="Ada", before=1500, after=1514, provisional=True),
            RatingChange(seat=seats["Bob"], name="Bob", before=1620, after=1608, provisional=False),
        ),
    )
    room, results = joined.room.model_dump(mode="json"), joined.results.model_dump(mode="json")
    async with code_box(server.port) as tab:
        head_hidden, rows = await tab.run(
            RATED, room, joined.seq, results, rated.model_dump(mode="json")
        )
        assert head_hidden is False
        changes = {row[1]: row[6] for row in rows}
        assert changes == {
            "Ada": "1500 \u2192 1514 (+14) provisional",
            "Bob": "1620 \u2192 1608 (\u221212)",
            "Cy": "",
        }
        await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "watch-rated.png"))


RATED_ROOM = Settings(countdown_s=1, rated=True)
SEED = secret_deal("records")
HOME = greedy_line(VARIANT, SEED)[0]
"""The deal's first greedy move puts a card home: one card ahead of a racer who moved none."""
CHANGES = """() => Array.from(document.querySelectorAll('#ranking tr'),
  (row) => [row.cells[1].textContent, row.cells[6].hidden ? null : row.cells[6].textContent])"""


def moved(change: RatingChange) -> str:
    sign = "+" if change.after >= change.before else "\u2212"
    return f"{change.before} \u2192 {change.after} ({sign}{abs(change.after - change.before)})"


async def test_a_rated_race_watched_live_leads_to_its_records(
    store: Store, clock: ManualClock, tmp_path: Path
) -> None:
    """Two accounts race a rated race: the page shows their changes as the records are
    written, Ann's profile shows the race and the game's board both accounts."""
    async with (
        serve(store, clock, leaderboard_min_races=1) as server,
        opened_clients(Client.open, server) as connect,
        browser() as chromium,
    ):
        pin_secrets(server, SEED)
        names = iter(["Ann", "Bob"])

        async def signed_in() -> Client:
            client = await connect()
            made = await client.call(CreateAccount, name=next(names))
            assert made.type == "account_created", made
            return client

        race = await open_race(signed_in, VARIANT, ["Ann", "Bob"], RATED_ROOM, watchers=0)
        tab = await open_tab(chromium, f"http://127.0.0.1:{server.port}/watch/{race.code}")
        await tab.wait_for("() => document.body.dataset.phase === 'lobby'")
        assert await tab.run(MARKS) == [["Ann", None], ["Bob", None]], "no rating yet"
        await start(race, SEED)
        ann, bob = race.racers
        await ann.play(HOME)
        await bob.resign()
        await ann.resign()
        up, down = (await bob.client.wait_event("race_rated")).changes
        await tab.wait_for("() => !document.getElementById('rating-head').hidden")
        assert await tab.run(CHANGES) == [
            ["Ann", f"{moved(up)} provisional"],
            ["Bob", f"{moved(down)} provisional"],
        ]
        assert up.after > up.before == down.before > down.after
        assert await tab.run(MARKS) == [
            ["Ann", f"rating {up.after}, provisional"],
            ["Bob", f"rating {down.after}, provisional"],
        ]
        await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "watch-rated-live.png"))
        later = await open_tab(chromium, f"http://127.0.0.1:{server.port}/watch/{race.code}")
        await later.wait_for("() => !document.getElementById('rating-head').hidden")
        assert await later.run(CHANGES) == await tab.run(CHANGES), "the room's snapshot says it"
        assert await later.run(MARKS) == await tab.run(MARKS)
        assert later.errors == []

        async with tab.page.expect_navigation():
            await tab.page.click("#ranking a:text-is('Ann')")
        await tab.wait_for("() => document.body.dataset.state === 'shown'")
        ratings = await tab.run(ROWS, "#ratings")
        assert ratings == [["Little Forty", f"{up.after} provisional", "1"]]
        (raced,) = await tab.run(ROWS, "#recent")
        assert raced[1:5] == ["Little Forty", f"{race.code} \u00b7 race 1", "secret", "1 / 2"]
        assert raced[9] == moved(up)
        await tab.page.screenshot(path=str(artifact_dir(tmp_path) / "profile-raced.png"))

        async with tab.page.expect_navigation():
            await tab.page.click("#ratings a:text-is('Little Forty')")
        await tab.wait_for("() => document.body.dataset.state === 'shown'")
        board = await tab.run(ROWS, "#board")
        assert board == [
            ["1", "Ann", f"{up.after} provisional", "1"],
            ["2", "Bob", f"{down.after} provisional", "1"],
        ]
        assert tab.errors == []
