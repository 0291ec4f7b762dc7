"""The race screen's side of a dead-end notice: say it, and resign on one key.

The notice itself asks the question, so the key resigns at once, without the
confirmation that ``x`` asks for; it means nothing once the player has moved
on from the position the notice was about.
"""

from __future__ import annotations

from rich.text import Text

from client_cli.room.dead_end import SCREEN_NOTICE, holds
from client_cli.tui.state import RaceControls

RESIGN_KEY = "R"
KEYS = f"{RESIGN_KEY}: resign (no card can go home)   or keep playing   ?: help"


def noticed(app: RaceControls) -> None:
    """A ``dead_end`` came: show it, if it is about the position on the screen."""
    if holds(app.session.tracker):
        app.bell()
        app.note(SCREEN_NOTICE, error=True)


def moved_on(app: RaceControls) -> None:
    """The player's game changed: a notice still on the message line is about a
    position left behind, so it goes."""
    if not holds(app.session.tracker) and app.state.message.plain == SCREEN_NOTICE:
        app.state.message = Text("")


def resign_key(app: RaceControls, key: str) -> bool:
    """Resign on `RESIGN_KEY` while the notice holds; False: the key is not for this."""
    if key != RESIGN_KEY or not holds(app.session.tracker):
        return False
    app.session.tracker.dead_end = None
    app.do(lambda: app.session.execute("resign"))
    return True


def keys_line(app: RaceControls) -> str | None:
    """The key line while the notice holds; None otherwise."""
    return KEYS if holds(app.session.tracker) else None
