"""Lobby and results keys against a real server: readiness, the host's settings, rematch."""

from __future__ import annotations

from pathlib import Path

from client_cli.tui import UNICODE
from client_cli.tui.app import RaceApp
from protocol import CreateRoom, Settings
from server.clock import ManualClock
from server.store import Store
from tests.client_cli._driver import Terminal
from tests.client_cli.tui._screen import create, join, start_race, wait_for_text, wait_until

SECRET = Settings(countdown_s=1)
"""A secret deal and the shortest countdown."""


def room_of(app: RaceApp) -> str:
    room = app.session.tracker.room
    assert room is not None
    return f"{room.variant} {room.settings.deal_number} {room.settings.time_limit_s}"


async def test_the_host_changes_game_deal_and_time_limit_with_keys(
    server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        text = await wait_for_text(pilot, "Little Forty  (public deal 1)")
        code = app.session.tracker.code
        assert f"Watch it in a browser: {server_url.replace('ws', 'http')}/watch/{code}" in text
        await pilot.press("g")
        await wait_for_text(pilot, "Little Milligan  (public deal 1)")
        await pilot.press("n")
        await wait_for_text(pilot, "(public deal 2)")
        await pilot.press("t")
        await wait_for_text(pilot, "time limit 30:00")
        await pilot.press("s")
        text = await wait_for_text(pilot, "(secret deal)")
        assert room_of(app) == "little-milligan None 1800"
        assert "host: g game" in text
        assert "+/- seats" in text  # every host key fits an 80-column lobby
        await pilot.press("R")
        await wait_for_text(pilot, "Rated: a race of two or more accounts")
        await pilot.press("n")
        text = await wait_for_text(pilot, "(public deal 1)")
        assert "Rated:" not in text  # a public deal is never rated
        await pilot.press("R")
        text = await wait_for_text(pilot, "Rated:")
        assert "(secret deal)" in text


async def test_space_toggles_ready_and_a_guest_cannot_change_settings(
    server_url: str, tmp_path: Path
) -> None:
    ada = Terminal(server_url)
    ada.start(lambda id_: CreateRoom(id=id_, variant="little-forty", name="Ada"))
    try:
        await ada.wait_for("Share the code")
        code = ada.session.tracker.code
        assert code is not None
        bob = join(server_url, code, "Bob")
        async with bob.run_test(size=(80, 24)) as pilot:
            await wait_for_text(pilot, "Bob              guest  not ready  (you)")
            await pilot.press("space")
            await wait_for_text(pilot, "Bob              guest  ready  (you)")
            await pilot.press("space")
            await wait_for_text(pilot, "Bob              guest  not ready  (you)")
            await pilot.press("g")
            text = await wait_for_text(pilot, "Only the host changes the game")
            assert "Little Forty" in text
            assert "host: g game" not in text
    finally:
        await ada.close()


async def test_rematch_moves_a_public_deal_on_unless_asked_for_the_same(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        for key, deal in (("m", 2), ("M", 2), ("m", 3)):
            await start_race(pilot, app, clock)
            await pilot.press("x", "y")
            await wait_for_text(pilot, "Ranked: winners first")
            await pilot.press(key)
            await wait_until(
                pilot,
                lambda deal=deal: room_of(app) == f"little-forty {deal} 900",  # type: ignore[misc]
                f"deal {deal}",
            )
            await wait_for_text(pilot, f"(public deal {deal})")


async def test_a_rematch_says_what_to_press_and_why_a_secret_deal_is_not_dealt_again(
    clock: ManualClock, server_url: str
) -> None:
    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant="little-forty", name="Ada", settings=SECRET)

    app = RaceApp(server_url, entry, UNICODE)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.press("x", "y")
        await wait_for_text(pilot, "Ranked: winners first")
        await pilot.press("m")
        await wait_for_text(pilot, "Rematch: back to the lobby for race 2. Press space when")
        await start_race(pilot, app, clock)
        await pilot.press("x", "y")
        await wait_for_text(pilot, "Ranked: winners first")
        await pilot.press("M")
        await wait_for_text(pilot, "A secret deal is never dealt twice: this race gets a new one.")


async def test_the_host_asks_for_a_winnable_deal_with_w(
    server_url: str, store: Store, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_text(pilot, "Little Forty  (public deal 1)")
        await pilot.press("w")
        await wait_for_text(pilot, "No winnable little-forty deal is left on this server: turn")
        await store.add_winnable("little-forty", [b"a winnable deal".ljust(32, b".")])
        await pilot.press("w")
        await wait_for_text(pilot, "Little Forty  (winnable deal)")
        await pilot.press("n")
        await wait_for_text(pilot, "Little Forty  (public deal 1)")
        assert await store.winnable_counts(["little-forty"]) == {"little-forty": 0}


async def test_a_practice_room_is_never_made_rated(server_url: str, tmp_path: Path) -> None:
    practice = Settings(countdown_s=1, practice=True)

    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant="little-forty", name="Ada", settings=practice)

    app = RaceApp(server_url, entry, UNICODE, tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_text(pilot, "Practice room")
        await pilot.press("R")
        text = await wait_for_text(pilot, "A practice room is never rated.")
        assert "Rated:" not in text
        room = app.session.tracker.room
        assert room is not None and not room.settings.rated


async def test_c_on_the_results_makes_the_race_a_challenge(
    clock: ManualClock, server_url: str
) -> None:
    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant="little-forty", name="Ada", settings=SECRET)

    app = RaceApp(server_url, entry, UNICODE)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.press("x", "y")
        text = await wait_for_text(pilot, "Ranked: winners first")
        assert "c: challenge" in text
        await pilot.press("c")
        await wait_for_text(pilot, "others race this deal against your runs with")
        shown = await wait_for_text(pilot, "Its key closes it early")
        assert "Or in a browser: http://127.0.0.1:" in shown, "the link and the key stay in sight"
    assert "Its key closes it early" in app.notes[-1]
