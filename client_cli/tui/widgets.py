"""The race screen's widgets: the board, the live panel and the move line."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.suggester import Suggester
from textual.widgets import Input, Static

from client_cli.room.visible import visible_moves
from engine import Move
from protocol import BoardView

Draw = Callable[[int, int], list[Text]]
"""Lines for a content area of the given width and height."""


class Pane(Static):
    """A static area redrawn from a pure drawing function at its own size."""

    def __init__(self, *, id: str | None = None, can_focus: bool = False) -> None:
        super().__init__(id=id)
        self.draw: Draw | None = None
        self.can_focus = can_focus
        self.shown: list[Text] = []

    def show(self, draw: Draw) -> None:
        self.draw = draw
        self._redraw()

    def on_resize(self, event: Resize) -> None:
        self._redraw()

    def _redraw(self) -> None:
        width, height = self.content_size.width, self.content_size.height
        if self.draw is None or width <= 0 or height <= 0:
            return
        lines = self.draw(width, height)[:height]
        if lines != self.shown:
            self.shown = lines
            self.update(Text("\n").join(lines))


class LegalMoves(Suggester):
    """Completes the move line with a legal move of the current board, in the notation
    with a card count (``t3:2 t7``) or, where it names the same move, without (``t3 t7``)."""

    def __init__(self, board: Callable[[], BoardView | None]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.board = board

    async def get_suggestion(self, value: str) -> str | None:
        board = self.board()
        if board is None or not value.strip():
            return None
        for text in move_texts(visible_moves(board)):
            if text.startswith(value):
                return text
        return None


def move_texts(moves: list[Move]) -> list[str]:
    """Each move's text, then the texts without a count of the moves that are the only
    legal one between their two places (so the short text cannot mean another)."""
    full = [move.format() for move in moves]
    return full + [text for text in short_texts(moves) if text not in full]


def short_texts(moves: list[Move]) -> list[str]:
    """Each move once, as a player would type it: without its card count where it is
    the only legal move between its two places."""

    def places(move: Move) -> tuple[object, ...]:
        return move.src, move.src_index, move.dst, move.dst_index

    pairs = Counter(places(move) for move in moves if move.count is not None)
    return [
        replace(move, count=None).format()
        if move.count is not None and pairs[places(move)] == 1
        else move.format()
        for move in moves
    ]


class MoveLine(Input):
    """One line of notation, with history on Up and Down."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "history(-1)", "Earlier line", show=False),
        Binding("down", "history(1)", "Later line", show=False),
    ]

    def __init__(self, suggester: Suggester, placeholder: str) -> None:
        super().__init__(placeholder=placeholder, suggester=suggester, id="moveline")
        self.history: list[str] = []
        self.place = 0

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
        self.place = len(self.history)

    def action_history(self, step: int) -> None:
        self.place = max(0, min(len(self.history), self.place + step))
        self.value = self.history[self.place] if self.place < len(self.history) else ""
        self.cursor_position = len(self.value)
