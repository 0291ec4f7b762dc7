"""What the server's solver says, as a player reads it: hints and the deal's verdict.

A hint is asked for with ``hint`` (line mode) or a key (full screen), in
practice rooms only; the server answers with the next move of a winning line
from the player's position, or says it found none within its budget. The
verdict on a raced deal arrives after the results (``deal_analysed``). Only words here: the
session asks (`Session.ask_hint`).
"""

from __future__ import annotations

from protocol import DealVerdict, Hint

NO_LINE = "No winning line found within the budget."


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
