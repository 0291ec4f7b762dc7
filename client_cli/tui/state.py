"""What the race app keeps besides the room, and what its screens and helpers use of it.

The screens (`screens`, `race`) and the key helpers (`_actions`, `_dead_end`,
`hints`) see the app through `RaceControls`, a small Protocol of what they
read and call, so none of them imports the app (`app.RaceApp` satisfies it).
What they change lives in one `ScreenState` the app owns: the card picked up,
the move a hint put on the move line, and the message line.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.text import Text
from textual.screen import Screen

from client_cli.tui.glyphs import Glyphs
from client_cli.tui.keys import Pick
from client_cli.tui.link import ScreenSession
from engine import Move
from protocol import RaceOver

Job = Callable[[], Awaitable[object]]
"""A request to make, queued and done one at a time."""


@dataclass(slots=True)
class ScreenState:
    """What the screen shows that the room does not say."""

    held: Pick | None = None
    """The card (or run) picked up, waiting for where it goes."""
    hinted: str | None = None
    """The move a hint put on the move line, until the board moves on."""
    message: Text = field(default_factory=lambda: Text(""))
    """The line under the board: the latest refusal or news."""
    picking_bot: bool = False
    """``b`` was pressed in the lobby: the next key, 1 to 5, is the new bot's level."""


class RaceControls(Protocol):
    """What the screens and key helpers use of the race app."""

    session: ScreenSession
    glyphs: Glyphs
    state: ScreenState
    over: RaceOver | None
    """The results of the race just over, while they are shown."""
    checks: list[str]
    """What checking those results against the revealed seed found."""
    same_deal: bool | None

    @property
    def screen(self) -> Screen[Any]: ...

    def push_screen(self, screen: Screen[Any]) -> object: ...

    def bell(self) -> None: ...

    def note(self, text: str | Text, error: bool = False) -> None: ...

    def do(self, job: Job) -> None: ...

    def redraw(self) -> None: ...

    def send_move(self, move: Move) -> None: ...

    def board_key(self, key: str) -> bool: ...

    def lobby_key(self, key: str) -> bool: ...

    def typed(self, line: str) -> None: ...

    def rematch(self, same_deal: bool) -> None: ...

    def challenge(self) -> None: ...
