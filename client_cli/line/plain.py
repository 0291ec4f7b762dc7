"""Line mode: typed lines in (edited at a terminal), room news and boards printed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from bots.levels import Level
from client_cli.bots.team import BotTeam
from client_cli.line.keyboard import typed_lines
from client_cli.session.saved_seats import SavedSeat
from client_cli.session.session import Entry, Session


async def run_plain(
    server: str,
    entry: Entry,
    saved: SavedSeat | None,
    seats_dir: Path,
    *,
    bots: int,
    bot_speed: float,
    bot_level: Level | None = None,
    account_key: str | None = None,
) -> int:
    """Enter the room (or resume ``saved``) with ``bots`` bots, signed in with
    ``account_key`` if given, then take typed lines until ``quit``; the exit status."""
    session = Session(server, show, seats_dir)
    session.account_key = account_key
    team = BotTeam(session, bots, bot_speed, show, level=bot_level)
    if saved is not None:
        entry = session.resume_from(saved)
        team.bring_back(saved)
    async with team as seated:
        with typed_lines(session.completions) as lines:
            return await session.run(entry, seated.hold(lines))


def show(text: str) -> None:
    """Print at once; if the reader of our output went away, keep playing silently."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
