"""The race screen's widgets: the board, the live panel and the move line."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.suggester import Suggester
from textual.widgets import Input, Static

from client_cli.visible import visible_moves
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
    """Completes the move line with a legal move of the current board."""

    def __init__(self, board: Callable[[], BoardView | None]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.board = board

    async def get_suggestion(self, value: str) -> str | None:
        board = self.board()
        if board is None or not value.strip():
            return None
        for move in visible_moves(board):
            text = move.format()
            if text.startswith(value):
                return text
        return None


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
