"""What the server's solver says, as a player reads it: hints and the deal's verdict.

A hint is asked for with ``hint`` (line mode) or a key (full screen), in
practice rooms only; the server answers with the next move of a winning line
from the player's position, or says it found none within its budget. The
verdict on a raced deal arrives after the results (``deal_analysed``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protocol import AskHint, DealVerdict, Hint

if TYPE_CHECKING:
    from client_cli.session.session import Session

NO_LINE = "No winning line found within the budget."


async def ask_hint(session: Session) -> Hint | None:
    """Ask for a hint and show it; the reply, or ``None`` when refused or not racing.

    A refusal (not a practice room, race over, server busy) is shown by the session.
    """
    tracker = session.tracker
    board = tracker.board
    if tracker.seat is None or board is None or board.outcome != "playing":
        session.write("Hints are for players in a race.")
        return None
    if session.reconnecting:
        session.write("Not connected: ask for the hint again once the connection is back.")
        return None
    reply = await session.call(AskHint(id=session.pending.next_id()))
    if not isinstance(reply, Hint):
        return None
    session.write(hint_text(reply, tracker.version))
    return reply


def hint_text(hint: Hint, version: int | None) -> str:
    """The hint as a sentence; it says so when the board has moved on since."""
    if hint.verdict == "won" and hint.move is not None:
        text = f"Hint: {hint.move}"
    elif hint.verdict == "unwinnable":
        text = "No winning line: the solver proved none exists from here."
    else:
        text = NO_LINE
    if version is not None and version != hint.version:
        text += f" (for your board at move {hint.version}, not {version})"
    return text


def verdict_text(verdict: DealVerdict) -> str:
    """The solver's verdict on a raced deal as a sentence."""
    if verdict.verdict == "won":
        return f"Solver: this deal can be won; it found a line of {verdict.line_moves} moves."
    if verdict.verdict == "unwinnable":
        return "Solver: this deal cannot be won, whatever the play."
    return f"Solver: no verdict on this deal within {verdict.budget_s:g} s of search."
