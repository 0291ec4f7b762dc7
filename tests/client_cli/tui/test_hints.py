"""The solver on the full screen, against a real server: the hint key in a practice
room, and the deal's verdict under the results.

Little Milligan deal 2 is won by the server's solver in milliseconds; Little
Billie deal 7 is proven unwinnable as fast.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from client_cli.tui import UNICODE, RaceApp
from client_cli.tui.widgets import MoveLine
from protocol import CreateRoom, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.solver_jobs import winning_line
from tests.client_cli.tui._screen import start_race, wait_for_text, wait_until

pytestmark = pytest.mark.solver_workers

FIRST_MOVE = winning_line("little-milligan", b"deal:2", (), 5.0)[1][0]


def _create(server: str, variant: str, settings: Settings, state: Path) -> RaceApp:
    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant=variant, name="Ada", settings=settings)

    return RaceApp(server, entry, UNICODE, state)


async def _start_workers(server: RaceServer) -> None:
    """Start the server's solver worker before the app takes over stderr: the worker's
    helper processes are handed the stderr descriptor, which a headless app lacks."""
    await server.services.analyst.run(winning_line, "little-milligan", b"deal:2", (), 5.0)


async def test_the_hint_key_shows_the_move_and_puts_it_on_the_move_line(
    clock: ManualClock, race_server: RaceServer, server_url: str, tmp_path: Path
) -> None:
    await _start_workers(race_server)
    settings = Settings(countdown_s=1, deal_number=2, practice=True)
    app = _create(server_url, "little-milligan", settings, tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        assert "H: hint" in await wait_for_text(pilot, "H: hint")
        await pilot.press("H")
        await wait_for_text(pilot, f"Hint: {FIRST_MOVE}")
        assert app.screen.query_one(MoveLine).value == FIRST_MOVE
        await pilot.press("tab", "enter")
        tracker = app.session.tracker
        await wait_until(pilot, lambda: tracker.version == 1, "the hinted move to be played")


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
