"""The race screen's dead-end notice, against a real server: shown with its
key, and that one key resigns with no further question.

Little Milligan deal 4: three deals bury the only card that could go home
(tests/server/test_dead_end.py pins that); the server checks once its clock
is thirty seconds on.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.pilot import Pilot

from client_cli.room.dead_end import FOUND
from client_cli.tui import UNICODE, RaceApp
from client_cli.tui._dead_end import KEYS
from client_cli.tui.guide import key_line
from protocol import CreateRoom, Settings
from server.app import RaceServer
from server.clock import ManualClock
from tests.client_cli.tui._screen import screen_text, start_race, wait_for_text, wait_until

pytestmark = pytest.mark.solver_workers

AFTER_MS = 30_000
RACE_KEYS = key_line("little-milligan", practice=False)


def _milligan_deal_4(server: str, state: Path) -> RaceApp:
    def entry(id_: int) -> CreateRoom:
        settings = Settings(countdown_s=1, deal_number=4)
        return CreateRoom(id=id_, variant="little-milligan", name="Ada", settings=settings)

    return RaceApp(server, entry, UNICODE, state)


async def _bury_and_wait(pilot: Pilot[int], app: RaceApp, clock: ManualClock) -> None:
    """Three deals, thirty seconds: the notice is on the screen."""
    await start_race(pilot, app, clock)
    tracker = app.session.tracker
    for version in (1, 2, 3):
        await pilot.press("d")
        await wait_until(pilot, lambda: tracker.version == version, f"deal {version}")  # noqa: B023
    assert RACE_KEYS in screen_text(app)
    await pilot.press("R")
    await pilot.pause()
    assert tracker.board is not None and tracker.board.outcome == "playing"
    clock.advance(AFTER_MS)
    text = await wait_for_text(pilot, FOUND + " R: resign")
    assert KEYS in text


async def test_the_notice_shows_and_one_key_resigns(
    clock: ManualClock, race_server: RaceServer, server_url: str, tmp_path: Path
) -> None:
    # The solver workers start before the app takes over stdout and stderr,
    # which a new worker process cannot inherit from a headless app.
    await race_server.services.analyst.run(os.getpid)
    app = _milligan_deal_4(server_url, tmp_path / "state")
    async with app.run_test(size=(100, 30)) as pilot:
        await _bury_and_wait(pilot, app, clock)
        tracker = app.session.tracker
        await pilot.press("R")
        await wait_until(pilot, lambda: "resigned" in screen_text(app), "the resignation")
        room = tracker.room
        assert room is not None and room.players[0].outcome == "resigned"


async def test_a_move_leaves_the_notice_behind(
    clock: ManualClock, race_server: RaceServer, server_url: str, tmp_path: Path
) -> None:
    await race_server.services.analyst.run(os.getpid)
    app = _milligan_deal_4(server_url, tmp_path / "state")
    async with app.run_test(size=(100, 30)) as pilot:
        await _bury_and_wait(pilot, app, clock)
        tracker = app.session.tracker
        await pilot.press("d")
        await wait_until(pilot, lambda: FOUND not in screen_text(app), "the notice to go")
        assert tracker.version == 4
        assert RACE_KEYS in screen_text(app)
        await pilot.press("R", "d")
        await wait_until(pilot, lambda: tracker.version == 5, "a move after R")
        assert tracker.room is not None and tracker.room.players[0].outcome == "playing"
