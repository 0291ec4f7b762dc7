"""The solver on the full screen, against a real server: the hint key in a practice
room, and the deal's verdict under the results.

Little Milligan deal 2 is won by the server's solver in milliseconds; Little
Billie deal 7 is proven unwinnable as fast.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from client_cli.tui import UNICODE, RaceApp
from client_cli.tui.widgets import MoveLine
from engine import Move
from protocol import CreateRoom, JoinRoom, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.solver.jobs import winning_line
from tests.client_cli._driver import Terminal
from tests.client_cli.tui._screen import screen_text, start_race, wait_for_text, wait_until

pytestmark = pytest.mark.solver_workers

FIRST_MOVE = winning_line("little-milligan", b"deal:2", (), 5.0)[1][0]


def _create(server: str, variant: str, settings: Settings, state: Path) -> RaceApp:
    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant=variant, name="Ada", settings=settings)

    return RaceApp(server, entry, UNICODE, state)


def _joining(code: str, name: str) -> Callable[[int], JoinRoom]:
    return lambda id_: JoinRoom(id=id_, code=code, name=name)


async def _start_workers(server: RaceServer) -> None:
    """Start the server's solver worker before the app takes over stderr: the worker's
    helper processes are handed the stderr descriptor, which a headless app lacks."""
    await server.services.analyst.run(winning_line, "little-milligan", b"deal:2", (), 5.0)


async def _practice_app(race_server: RaceServer, server_url: str, tmp_path: Path) -> RaceApp:
    """A practice room of Little Milligan's deal 2 to create, the solver ready for hints."""
    await _start_workers(race_server)
    settings = Settings(countdown_s=1, deal_number=2, practice=True)
    return _create(server_url, "little-milligan", settings, tmp_path / "state")


async def _hint_shown(pilot: Pilot[int], app: RaceApp, clock: ManualClock) -> None:
    """Start the race, then ask for a hint and wait until it is on the screen."""
    await start_race(pilot, app, clock)
    assert "H: hint" in await wait_for_text(pilot, "H: hint")
    await pilot.press("H")
    await wait_for_text(pilot, f"Hint: {FIRST_MOVE}")


@pytest.mark.parametrize("keys", [("tab", "enter"), ("enter",)], ids=["tab-enter", "enter"])
async def test_the_hint_key_puts_the_move_on_the_line_and_enter_plays_it(
    clock: ManualClock,
    race_server: RaceServer,
    server_url: str,
    tmp_path: Path,
    keys: tuple[str, ...],
) -> None:
    """Enter plays the line from the line, and from the board too: as when Enter comes
    before the line has taken the focus (Tab and Enter read at once). Then the board's
    keys work again: ``d`` deals instead of being typed into the line."""
    app = await _practice_app(race_server, server_url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _hint_shown(pilot, app, clock)
        assert app.screen.query_one(MoveLine).value == FIRST_MOVE
        assert not isinstance(app.focused, MoveLine)
        await pilot.press(*keys)
        tracker = app.session.tracker
        await wait_until(pilot, lambda: tracker.version == 1, "the hinted move to be played")
        assert app.screen.query_one(MoveLine).value == ""
        await pilot.press("d")
        await wait_until(pilot, lambda: tracker.version == 2, "the deal to be played")
        assert app.screen.query_one(MoveLine).value == ""


async def test_a_hint_leaves_the_screen_once_the_board_moves_on(
    clock: ManualClock, race_server: RaceServer, server_url: str, tmp_path: Path
) -> None:
    app = await _practice_app(race_server, server_url, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await _hint_shown(pilot, app, clock)
        app.send_move(Move.parse(FIRST_MOVE))  # as its keys would
        tracker = app.session.tracker
        await wait_until(pilot, lambda: tracker.version == 1, "the hinted move to be played")
        await wait_until(pilot, lambda: "Hint:" not in screen_text(app), "the hint to go")
        assert app.screen.query_one(MoveLine).value == ""


async def test_the_results_show_the_solvers_verdict_on_the_deal(
    clock: ManualClock, race_server: RaceServer, server_url: str, tmp_path: Path
) -> None:
    await _start_workers(race_server)
    settings = Settings(countdown_s=1, deal_number=7)
    app = _create(server_url, "little-billie", settings, tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        assert "H: hint" not in await wait_for_text(pilot, "x: resign")
        await pilot.press("x", "y")
        await wait_for_text(pilot, "Race 1 results")
        await wait_for_text(pilot, "Solver: this deal cannot be won, whatever the play.")


async def test_the_results_of_six_racers_and_the_verdict_fit_an_80x24_screen(
    clock: ManualClock, race_server: RaceServer, server_url: str, tmp_path: Path
) -> None:
    await _start_workers(race_server)
    settings = Settings(countdown_s=1, deal_number=7, max_players=6)
    app = _create(server_url, "little-billie", settings, tmp_path / "state")
    others = [Terminal(server_url) for _ in range(5)]
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.tracker.code is not None, "the room")
            code = app.session.tracker.code
            assert code is not None
            for number, other in enumerate(others, 1):
                other.start(_joining(code, f"P{number}"))
                await other.wait_for("Type ready")
                await other.type("ready", expect="You are ready.")
            await start_race(pilot, app, clock)
            for other in others:
                await other.type("resign", expect="You resigned after")
            await pilot.press("x", "y")
            await wait_for_text(pilot, "Race 1 results")
            text = await wait_for_text(pilot, "Solver: this deal cannot be won, whatever the play.")
            assert "6. " in text and "The seed is public deal 7, as announced." in text
            assert "WARNING" not in text
    finally:
        for other in others:
            await other.close()
