"""Which saved seat ``solrace resume`` takes: the only one, the room named, or the one asked for.

Saved seats that can no longer be resumed are dropped first: those that cannot
be read, and those whose race has been over for longer than a server keeps its
room. A saved seat says when its race's time runs out; one from an older client
does not, but its race was over at most `LONGEST_RACE_S` after it was saved.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

from client_cli.session import saved_seats
from client_cli.session.saved_seats import SavedSeat
from client_cli.words.render import counted
from engine import UnknownVariant, find_variant

Ask = Callable[[str], str]
Write = Callable[[str], None]

KEPT_AFTER_RACE_S = 24 * 3600
"""How long after its race a saved seat is kept. A server keeps a finished room an
hour, unless its host sets a longer ``--room-ttl``; a day leaves room for that."""
LONGEST_RACE_S = 3600 + 30
"""The longest time limit and countdown a room can have."""
PLACE_INDENT = "     "
"""Indents a choice's second line under its number."""


def pick_seat(
    directory: Path,
    code: str,
    server: str | None,
    write: Write,
    ask: Ask | None,
    *,
    now: float | None = None,
) -> SavedSeat | None:
    """The saved seat to resume, or ``None`` after saying why there is none.

    ``code`` and ``server`` narrow the choice when given; when several
    saved seats are left, ``ask`` (``None`` when nobody can answer) picks one.
    ``now``: the time, in seconds since the epoch (default: this machine's clock).
    """
    now = time.time() if now is None else now
    found = [
        saved
        for saved in prune(directory, now)
        if (not code or saved.code == code) and (server is None or saved.server == server)
    ]
    if not found:
        which = f"for room {code}" if code else "to resume"
        write(f"No saved seat {which} (in {directory}); join or create a room first.")
        return None
    if len(found) == 1:
        return found[0]
    return _choose(found, write, ask, now)


def prune(directory: Path, now: float) -> list[SavedSeat]:
    """The saved seats worth resuming; the others are removed."""
    kept: list[SavedSeat] = []
    for path in saved_seats.paths(directory):
        saved = saved_seats.load(path)
        if saved is None or now > race_end(saved) + KEPT_AFTER_RACE_S:
            path.unlink(missing_ok=True)
        else:
            kept.append(saved)
    return kept


def race_end(saved: SavedSeat) -> float:
    """When the saved seat's race is over at the latest."""
    return saved.ends_at if saved.ends_at is not None else saved.saved_at + LONGEST_RACE_S


def describe(saved: SavedSeat, now: float) -> str:
    """What tells one saved seat from another: the game, whose seat and the bots;
    then, on a line of its own, when it was saved, the time left, the room and server."""
    game = _game_name(saved.variant) or "a race"
    if saved.practice:
        game += " practice"
    if saved.seat is None:
        what = f"watching {game}"
    else:
        what = f"{game} as {saved.name}" if saved.name else f"{game}, seat {saved.seat + 1}"
    if saved.bots:
        what += f", with {counted(len(saved.bots), 'bot')}"
    when = f"saved {_ago(now - saved.saved_at)}"
    if saved.ends_at is not None:
        left_s = saved.ends_at - now
        when += f", {counted(math.ceil(left_s / 60), 'minute')} left" if left_s > 0 else ", over"
    return f"{what}\n{PLACE_INDENT}{when}; room {saved.code} on {saved.server}"


def _game_name(variant: str) -> str:
    try:
        return find_variant(variant).name if variant else ""
    except UnknownVariant:
        return ""


def _ago(seconds: float) -> str:
    if seconds < 60:
        return "just now"
    for unit, size in (("day", 86400), ("hour", 3600)):
        if seconds >= size:
            return f"{counted(int(seconds // size), unit)} ago"
    return f"{counted(int(seconds // 60), 'minute')} ago"


def _choose(found: list[SavedSeat], write: Write, ask: Ask | None, now: float) -> SavedSeat | None:
    found = sorted(found, key=lambda saved: -saved.saved_at)
    write(f"{len(found)} saved seats, the latest first:")
    for number, saved in enumerate(found, 1):
        write(f"  {number}. {describe(saved, now)}")
    if ask is None:
        write("Say which with the room code: solrace resume CODE")
        return None
    answer = ask(f"Which one (1-{len(found)})? ").strip()
    if answer.isdigit() and 1 <= int(answer) <= len(found):
        return found[int(answer) - 1]
    write(f"No seat {answer!r}: nothing resumed.")
    return None
