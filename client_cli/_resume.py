"""Which saved seat ``solrace resume`` takes: the only one, the room named, or the one asked for."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from client_cli import statefile
from client_cli.statefile import SavedSession

Ask = Callable[[str], str]
Write = Callable[[str], None]


def pick_record(
    directory: Path, code: str, server: str | None, write: Write, ask: Ask | None
) -> SavedSession | None:
    """The record to resume, or ``None`` after saying why there is none.

    ``code`` and ``server`` narrow the choice when given; when several
    records are left, ``ask`` (``None`` when nobody can answer) picks one.
    """
    found = [
        saved
        for saved in statefile.load_all(directory)
        if (not code or saved.code == code) and (server is None or saved.server == server)
    ]
    if not found:
        which = f"for room {code}" if code else "to resume"
        write(f"No saved seat {which} (in {directory}); join or create a room first.")
        return None
    if len(found) == 1:
        return found[0]
    return _choose(found, write, ask)


def _choose(found: list[SavedSession], write: Write, ask: Ask | None) -> SavedSession | None:
    write(f"{len(found)} saved seats:")
    for number, saved in enumerate(found, 1):
        write(f"  {number}. {saved.describe()}")
    if ask is None:
        write("Say which with the room code: solrace resume CODE")
        return None
    answer = ask(f"Which one (1-{len(found)})? ").strip()
    if answer.isdigit() and 1 <= int(answer) <= len(found):
        return found[int(answer) - 1]
    write(f"No seat {answer!r}: nothing resumed.")
    return None
