"""The solver on the full screen: the hint key on the race screen, and the deal's
verdict under the results."""

from __future__ import annotations

from rich.text import Text

from client_cli.tui.state import RaceControls
from client_cli.tui.widgets import MoveLine
from client_cli.words.solver_news import verdict_text
from protocol import RoomSnapshot

HINT_KEY = "H"


async def show_hint(app: RaceControls) -> None:
    """Ask for a hint; a winning move is also put on the move line, ready to send."""
    hint = await app.session.ask_hint()
    if hint is None or hint.move is None or hint.version != app.session.tracker.version:
        return
    lines = app.screen.query(MoveLine)
    if lines:
        lines.first().value = app.state.hinted = hint.move
        app.note(f"Hint: {hint.move}   (Enter plays it)")


def moved_on(app: RaceControls) -> None:
    """The player's board changed: a hint shown for the board before is stale, so it
    leaves the message line, and the move line if it still holds it."""
    if app.state.hinted is None:
        return
    if app.state.message.plain.startswith("Hint: "):
        app.state.message = Text("")
    for line in app.screen.query(MoveLine):
        if line.value == app.state.hinted:
            line.value = ""
    app.state.hinted = None


def verdict_lines(room: RoomSnapshot) -> list[Text]:
    """The solver's verdict on the race's deal, once the server has sent it."""
    if room.verdict is None or room.verdict.race_no != room.race_no:
        return []
    return [Text(""), Text(verdict_text(room.verdict), style="bold")]
