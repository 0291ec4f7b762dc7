"""The screens over the race: the list of legal moves (against a real race server),
and dialogs that a burst of keys closes once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.events import Key
from textual.screen import ModalScreen

from client_cli.room.visible import visible_moves
from client_cli.tui.screens import ConfirmScreen, HelpScreen, MovesScreen
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


class _Host(App[None]):
    """An app with nothing but a screen to put dialogs over."""

    def __init__(self) -> None:
        super().__init__()
        self.answers: list[bool | None] = []


DIALOGS: dict[str, tuple[Callable[[], ModalScreen[Any]], bool | None]] = {
    "confirm": (lambda: ConfirmScreen("Resign this race?"), False),
    "help": (HelpScreen, None),
    "moves": (lambda: MovesScreen(["draw"]), None),
}


@pytest.mark.parametrize("kind", list(DIALOGS))
async def test_keys_typed_faster_than_a_dialog_goes_answer_it_once(kind: str) -> None:
    make, answer = DIALOGS[kind]
    app = _Host()
    async with app.run_test(size=(80, 24)) as pilot:
        shown: ModalScreen[Any] = make()
        await app.push_screen(shown, app.answers.append)
        for key in "resign":  # a word typed at the dialog, all queued before it goes
            shown.post_message(Key(key, key))
        await pilot.pause()
        await pilot.pause()
        assert app.answers == [answer]
        assert len(app.screen_stack) == 1 and app.is_running
