"""The screens around the race: waiting to connect, the lobby, the results, help
and confirmation. Each one redraws itself from the app's state in `refresh_view`."""

from __future__ import annotations

import contextlib
from typing import TypeVar, cast

from rich.columns import Columns
from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.events import Key
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from client_cli.link.watch_link import watch_link
from client_cli.tui.hints import verdict_lines
from client_cli.tui.state import RaceControls
from client_cli.tui.texts import (
    HELP,
    folded_checks,
    last_race_block,
    lobby_keys,
    lobby_lines,
    results_keys,
    results_lines,
    rows_taken,
)
from engine import find_variant

AnswerT = TypeVar("AnswerT")


class View(Screen[None]):
    """A screen of the race app, redrawn from its state."""

    @property
    def race(self) -> RaceControls:
        return cast("RaceControls", self.app)

    def refresh_view(self) -> None:
        """Redraw from the app's state; called on every change and clock tick."""
        if self.is_mounted:
            with contextlib.suppress(NoMatches):
                self.draw()

    def draw(self) -> None:
        """Put the app's state on this screen's widgets."""

    def on_screen_resume(self) -> None:
        self.refresh_view()


def key_name(event: Key) -> str:
    """A printable key as its character (``" "`` for space), others by name (``escape``)."""
    character = event.character
    return character if character and character.isprintable() else event.key


class WaitScreen(View):
    def compose(self) -> ComposeResult:
        yield Static("Connecting...", id="wait")

    def draw(self) -> None:
        self.query_one("#wait", Static).update(self.race.state.message or Text("Connecting..."))


class LobbyScreen(View):
    def compose(self) -> ComposeResult:
        yield Static(id="lobby")
        yield Static(id="message")
        yield Static(id="keys")

    def draw(self) -> None:
        tracker = self.race.session.tracker
        room = tracker.room
        if room is None:
            return
        link = watch_link(self.race.session.server, room.code)
        area = self.query_one("#lobby", Static)
        lines = lobby_lines(room, tracker.seat, link)
        if room.last_race is not None:
            shown = [*lines, *last_race_block(room.last_race)]
            width, height = area.content_size
            if height and rows_taken(shown, width) > height:
                shown = [*lines, *last_race_block(room.last_race, folded=True)]
            lines = shown
        area.update(Text("\n").join(lines))
        self.query_one("#message", Static).update(self.race.state.message)
        self.query_one("#keys", Static).update(Text(lobby_keys(room, tracker.seat)))

    def on_key(self, event: Key) -> None:
        if self.race.lobby_key(key_name(event)):
            event.stop()


class ResultsScreen(View):
    def compose(self) -> ComposeResult:
        yield Static(id="results")
        yield Static(id="message")
        yield Static(id="keys")

    def draw(self) -> None:
        app, tracker = self.race, self.race.session.tracker
        if tracker.room is None or app.over is None:
            return
        total = find_variant(tracker.room.variant).total
        verdict = verdict_lines(tracker.room)
        area = self.query_one("#results", Static)
        room = tracker.room
        made = app.session.challenge_made
        # The challenge made of this race stays in sight: its link, and its key shown once.
        if made is not None and made[0] == room.race_no:
            verdict = [*verdict, Text(""), *map(Text, made[1].splitlines())]
        lines = [*results_lines(app.over, total, app.checks, room), *verdict]
        width, height = area.content_size
        if height and rows_taken(lines, width) > height:
            lines = [*results_lines(app.over, total, folded_checks(app.checks), room), *verdict]
        area.update(Text("\n").join(lines))
        self.query_one("#message", Static).update(app.state.message)
        self.query_one("#keys", Static).update(Text(results_keys(tracker.room, tracker.seat)))

    def on_key(self, event: Key) -> None:
        if event.character in ("m", "M"):
            event.stop()
            self.race.rematch(same_deal=event.character == "M")
        elif event.character == "c":
            event.stop()
            self.race.challenge()


class KeyClosedScreen(ModalScreen[AnswerT]):
    """A dialog the next key closes. Keys typed faster than it goes (a paste, a held
    key, a typed word) reach it too; only the first answers, so a second answer
    cannot close the screen underneath."""

    answered = False

    def answer(self, result: AnswerT) -> None:
        if not self.answered:
            self.answered = True
            self.dismiss(result)


class HelpScreen(KeyClosedScreen[None]):
    def __init__(self, text: str = HELP) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.text + "\n\nAny key closes this help.", id="help")

    def on_key(self, event: Key) -> None:
        event.stop()
        self.answer(None)


class MovesScreen(KeyClosedScreen[None]):
    """Every move the board allows, in as many columns as the screen has room for."""

    def __init__(self, moves: list[str]) -> None:
        super().__init__()
        self.moves = moves

    def compose(self) -> ComposeResult:
        count = len(self.moves)
        head = f"{count} {'move' if count == 1 else 'moves'} your board allows:"
        table = Columns(self.moves, padding=(0, 3), column_first=True)
        tail = "Type one on the move line. Any key closes this list."
        with Vertical(id="dialog"):
            yield Static(Group(head, table, "", tail), id="moves")

    def on_key(self, event: Key) -> None:
        event.stop()
        self.answer(None)


class ConfirmScreen(KeyClosedScreen[bool]):
    """A yes/no question; `y` or Enter says yes, anything else no."""

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"{self.question}\n\ny: yes    n or Esc: no", id="question")

    def on_key(self, event: Key) -> None:
        event.stop()
        self.answer(event.key in ("y", "enter"))
