"""The screens over the race against a real race server: the list of legal moves."""

from __future__ import annotations

from pathlib import Path

from client_cli.room.visible import visible_moves
from client_cli.tui.widgets import short_texts
from server.clock import ManualClock
from tests.client_cli.tui._boards import deal_one
from tests.client_cli.tui._screen import (
    create,
    screen_text,
    start_race,
    wait_for_text,
    wait_until,
)

PLAYED = ("t9:1 t10", "t3:1 t7", "draw", "t3:1 f1", "t9:1 t5", "t9:1 t3", "t9:1 t3")
"""A line of Little Forty deal 1 after which the board allows 25 moves."""


async def test_typing_moves_lists_every_legal_move_on_an_80x24_screen(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    moves = short_texts(visible_moves(deal_one("little-forty", *PLAYED)))
    assert len(", ".join(moves)) > 2 * 78
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.press("tab")
        tracker = app.session.tracker
        for move in PLAYED:
            played = (tracker.version or 0) + 1
            await pilot.press(*move, "enter")
            await wait_until(pilot, lambda: tracker.version == played, move)  # noqa: B023
        await pilot.press(*"moves", "enter")
        text = await wait_for_text(pilot, f"{len(moves)} moves your board allows:")
        listed = " ".join(text.split("your board allows:")[1].split("Type one")[0].split("│"))
        assert {item.strip() for item in listed.split("  ") if item.strip()} == set(moves)
        await pilot.press("escape")
        await wait_until(pilot, lambda: "allows:" not in screen_text(app), "the list to close")
