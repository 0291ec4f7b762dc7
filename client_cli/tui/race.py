"""The race screen for a player and the watch screen for a spectator.

Both put the board (or boards) on the left and the live panel on the right;
the line under them shows why a move was refused or the latest room news,
and nothing ever scrolls. Before the start the board area shows the
countdown in big digits.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Key
from textual.widgets import Input, Static

from client_cli.tui._dead_end import keys_line
from client_cli.tui.board import board_lines
from client_cli.tui.glyphs import Glyphs
from client_cli.tui.guide import key_line, placeholder
from client_cli.tui.panel import STATES, big_number, panel_lines
from client_cli.tui.screens import HelpScreen, View, key_name
from client_cli.tui.texts import WATCH_HELP
from client_cli.tui.widgets import LegalMoves, MoveLine, Pane
from client_cli.words.render import player_name
from engine import find_variant
from protocol import BoardView, RoomSnapshot

BOARD_MIN_WIDTH = 54


RECONNECTING = " Reconnecting... "


def top_line(room: RoomSnapshot, you: int | None, reconnecting: bool = False) -> Text:
    """Room code, game, race and deal, who you are; while the connection is down, says so."""
    deal = room.settings.deal_number
    name = "winnable deal" if room.settings.winnable_only else "secret deal"
    line = Text.assemble(
        ("solrace ", "bold"),
        (room.code, "reverse"),
        (f" {RECONNECTING}" if reconnecting else "", "bold white on red"),
        f"  {find_variant(room.variant).name}  race {room.race_no}",
        f"  {name if deal is None else f'deal {deal}'}",
    )
    line.append("  watching" if you is None else f"  you: {player_name(room, you)}", style="dim")
    return line


def over_keys(room: RoomSnapshot, you: int | None) -> str | None:
    """The key line once your own race is over and others still race: no key plays."""
    player = next((player for player in room.players if player.seat == you), None)
    if room.phase != "racing" or player is None or player.outcome == "playing":
        return None
    return (
        f"Your race is over ({STATES[player.outcome]}); results when all are done   ctrl+q: leave"
    )


def countdown_lines(room: RoomSnapshot, now_ms: int, glyphs: Glyphs, width: int) -> list[Text]:
    """The seconds left before the start, big and centred, and the seed commitment."""
    start = room.start_at_ms or now_ms
    seconds = max(0, (start - now_ms + 999) // 1000)
    digits = big_number(seconds, glyphs)
    lines = [Text(""), Text("Get ready!".center(width), style="bold yellow"), Text("")]
    lines += [Text(row.center(width), style="bold yellow") for row in digits]
    lines += [Text(""), Text("The deal is fixed; its seed commitment:".center(width))]
    lines.append(Text((room.seed_commit or "")[: width - 2].center(width), style="dim"))
    return lines


class RaceScreen(View):
    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="main"):
            yield Pane(id="board", can_focus=True)
            yield Pane(id="panel")
        yield Static(id="message")
        yield MoveLine(LegalMoves(self._board), "")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.query_one("#board", Pane).focus()

    def _board(self) -> BoardView | None:
        return self.race.session.tracker.board

    def draw(self) -> None:
        app, tracker = self.race, self.race.session.tracker
        room = tracker.room
        if room is None:
            return
        now = app.session.now_ms()
        top = top_line(room, tracker.seat, app.session.reconnecting)
        self.query_one("#top", Static).update(top)
        board = tracker.board
        if room.phase == "countdown" or board is None:
            self.query_one("#board", Pane).show(
                lambda w, h: countdown_lines(room, now, app.glyphs, w)
            )
        else:
            self.query_one("#board", Pane).show(
                lambda w, h: board_lines(board, app.glyphs, w, h, app.state.held)
            )
        self.query_one("#panel", Pane).show(
            lambda w, h: panel_lines(room, tracker.seat, now, app.glyphs, w)
        )
        self.query_one("#message", Static).update(app.state.message)
        game = key_line(room.variant, room.settings.practice)
        self.query_one("#keys", Static).update(
            over_keys(room, tracker.seat) or keys_line(app) or game
        )
        self.query_one(MoveLine).placeholder = placeholder(room.variant)

    def on_key(self, event: Key) -> None:
        if isinstance(self.focused, Input):
            if event.key == "escape":
                event.stop()
                self.query_one("#board", Pane).focus()
            return
        if event.key in ("tab", "colon", "enter") or event.character == ":":
            event.stop()
            line = self.query_one(MoveLine)
            if event.key == "enter" and line.value.strip():
                self._send_line(line.value)  # Enter plays what the line holds (a hint)
            else:
                line.focus()
        elif self.race.board_key(key_name(event)):
            event.stop()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._send_line(event.value)

    def _send_line(self, value: str) -> None:
        """Play the line's move or command, keep it in the history, empty the line.

        A hint's move played from the line hands the keys back to the board, so the
        next pile key or ``H`` is not typed into the line; a move the player typed
        keeps the line, for the next one.
        """
        line = self.query_one(MoveLine)
        from_hint = value.strip() == self.race.state.hinted
        line.remember(value.strip())
        line.value = ""
        self.race.typed(value)
        if from_hint:
            self.query_one("#board", Pane).focus()


class WatchScreen(View):
    """Every player's board, side by side as far as the width allows; ``n`` shows the next."""

    def __init__(self) -> None:
        super().__init__()
        self.first = 0

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="main"):
            yield Pane(id="board")
            yield Pane(id="panel")
        yield Static(id="message")
        yield Static("n/p: next/previous player   ?: help   ctrl+q: leave", id="keys")

    def draw(self) -> None:
        app, tracker = self.race, self.race.session.tracker
        room = tracker.room
        if room is None:
            return
        now = app.session.now_ms()
        self.query_one("#top", Static).update(top_line(room, None, app.session.reconnecting))
        if room.phase == "countdown" or not tracker.boards:
            self.query_one("#board", Pane).show(
                lambda w, h: countdown_lines(room, now, app.glyphs, w)
            )
        else:
            self.query_one("#board", Pane).show(self._boards)
        self.query_one("#panel", Pane).show(
            lambda w, h: panel_lines(room, None, now, app.glyphs, w)
        )
        self.query_one("#message", Static).update(app.state.message)

    def _boards(self, width: int, height: int) -> list[Text]:
        tracker, glyphs = self.race.session.tracker, self.race.glyphs
        assert tracker.room is not None
        seats = sorted(tracker.boards)
        fit = max(1, min(len(seats), (width + 3) // (BOARD_MIN_WIDTH + 3)))
        column = (width - 3 * (fit - 1)) // fit
        shown = [seats[(self.first + i) % len(seats)] for i in range(fit)]
        columns = []
        for seat in shown:
            version, board = tracker.boards[seat]
            head = Text(f"{player_name(tracker.room, seat)} (#{seat + 1}), move {version}")
            head.stylize("bold reverse")
            columns.append([head, *board_lines(board, glyphs, column, height - 1, keys=False)])
        return _side_by_side(columns, column, height)

    def on_key(self, event: Key) -> None:
        count = max(1, len(self.race.session.tracker.boards))
        if event.character in ("n", "p"):
            event.stop()
            self.first = (self.first + (1 if event.character == "n" else -1)) % count
            self.refresh_view()
        elif event.character == "?":
            event.stop()
            self.app.push_screen(HelpScreen(WATCH_HELP))


def _side_by_side(columns: list[list[Text]], width: int, height: int) -> list[Text]:
    lines = []
    for row in range(min(height, max(len(column) for column in columns))):
        line = Text()
        for index, column in enumerate(columns):
            cell = column[row].copy() if row < len(column) else Text("")
            cell.truncate(width, pad=True)
            if index:
                line.append(" | ", style="dim")
            line.append_text(cell)
        lines.append(line)
    return lines
