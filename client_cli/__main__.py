"""``solrace``: the full-screen race client, or with ``--plain`` the line mode
(typed lines in, room news and boards out); ``solrace bot`` runs a bot."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

from client_cli.args import DEFAULT_SERVER, Options, parse_args
from client_cli.bots.runner import BotPlan, run_bot
from client_cli.line.plain import run_plain, show
from client_cli.room.tracker import Tracker
from client_cli.session import saved_seats
from client_cli.session.resume import pick_seat
from client_cli.session.session import Entry
from client_cli.tui import RaceApp, pick_glyphs
from protocol import CreateRoom, JoinRoom, Role


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    try:
        return asyncio.run(run(options, saved_seats.state_dir()))
    except KeyboardInterrupt:
        return 130


async def run(options: Options, seats_dir: Path) -> int:
    """Play, watch or run a bot from this terminal; the exit status."""
    server = options.server or DEFAULT_SERVER
    if options.action == "bot":
        entry = entry_request(options)
        return await run_bot(server, entry, bot_plan(options), show, _show_code(options))
    saved = None
    if options.action == "resume":
        saved = pick_seat(seats_dir, options.code, options.server, show, _asker())
        if saved is None:
            return 1
        server = options.server or saved.server
    if not options.plain and sys.stdin.isatty() and sys.stdout.isatty():
        return await run_screen(server, options, saved, seats_dir)
    entry = entry_request(options)
    return await run_plain(
        server, entry, saved, seats_dir, bots=options.bots, bot_speed=options.bot_speed
    )


async def run_screen(
    server: str, options: Options, saved: saved_seats.SavedSeat | None, seats_dir: Path
) -> int:
    """The full-screen client; what it noted last is printed once the screen is gone."""
    glyphs = pick_glyphs(sys.stdout.encoding, options.ascii)
    app = RaceApp(
        server,
        entry_request(options),
        glyphs,
        seats_dir,
        bots=options.bots,
        bot_speed=options.bot_speed,
    )
    if saved is not None:
        app.resume(saved)
    status = await app.run_async()
    for note in app.notes[-3:]:
        show(note)
    return 1 if status is None else status


def bot_plan(options: Options) -> BotPlan:
    seats = options.settings.max_players if options.variant else None
    return BotPlan(options.name, options.strategy, options.bot_speed, seats)


def _show_code(options: Options) -> Callable[[Tracker], None] | None:
    """``bot --create`` prints the room's code first, for scripts to read."""
    return (lambda tracker: show(f"code: {tracker.code}")) if options.variant else None


def _asker() -> Callable[[str], str] | None:
    """Asking works only when someone types at a terminal."""
    return input if sys.stdin.isatty() else None


def entry_request(options: Options) -> Entry:
    """How the session enters its room: create (with bots, or to practise), join or watch."""
    if options.action in ("create", "practice") or options.variant:
        return lambda id_: CreateRoom(
            id=id_, variant=options.variant, name=options.name, settings=options.settings
        )
    role: Role = "spectator" if options.action == "watch" else "player"
    return lambda id_: JoinRoom(id=id_, code=options.code, name=options.name, role=role)


if __name__ == "__main__":
    raise SystemExit(main())
