"""Driving the full-screen app in tests: its screen as text, and bounded waits."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot

from client_cli.tui import UNICODE, RaceApp
from protocol import CreateRoom, JoinRoom, Role, Settings
from server.clock import ManualClock

TIMEOUT_S = 10.0
BOARD_COLUMNS = 54
FAST = Settings(deal_number=1, countdown_s=1)
"""A pinned public deal and the shortest countdown."""


def create(server: str, variant: str, state: Path, name: str = "Ada") -> RaceApp:
    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant=variant, name=name, settings=FAST)

    return RaceApp(server, entry, UNICODE, state)


def join(server: str, code: str, name: str, role: Role = "player") -> RaceApp:
    def entry(id_: int) -> JoinRoom:
        return JoinRoom(id=id_, code=code, name=name, role=role)

    return RaceApp(server, entry, UNICODE)


def screen_text(app: RaceApp) -> str:
    """Every cell of the screen as the terminal shows it, one line per row."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def board_area(text: str) -> list[str]:
    """The top bar and the board of a race screen at 80x24, without the live panel."""
    return [line[:BOARD_COLUMNS] for line in text.splitlines()[:21]]


async def wait_until(pilot: Pilot[int], check: Callable[[], bool], what: str) -> None:
    """Let the app run until ``check()`` holds; fail after `TIMEOUT_S`."""
    try:
        async with asyncio.timeout(TIMEOUT_S):
            while not check():
                await pilot.pause(0.02)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def wait_for_text(pilot: Pilot[int], text: str) -> str:
    await wait_until(pilot, lambda: text in screen_text(pilot.app), repr(text))  # type: ignore[arg-type]
    return screen_text(pilot.app)  # type: ignore[arg-type]


async def start_race(pilot: Pilot[int], app: RaceApp, clock: ManualClock) -> None:
    """Say ready in the lobby and run the server's clock through the countdown to the board."""
    await wait_until(pilot, lambda: app.session.tracker.room is not None, "the room")
    await pilot.pause()
    await pilot.press("space")
    await run_countdown(pilot, app, clock)
    await wait_until(pilot, lambda: app.session.tracker.board is not None, "the board")
    await pilot.pause()


async def run_countdown(pilot: Pilot[int], app: RaceApp, clock: ManualClock) -> None:
    """Once the room counts down, move the server's clock to the start; wait for the race."""
    tracker = app.session.tracker
    await wait_until(pilot, lambda: tracker.countdown_target_ms() is not None, "the countdown")
    start_at_ms = tracker.countdown_target_ms()
    assert start_at_ms is not None
    clock.advance_to(start_at_ms)
    await wait_until(
        pilot, lambda: tracker.room is not None and tracker.room.phase == "racing", "the race"
    )
