"""``solrace``: the plain line-mode client. Typed lines in, room news and boards out."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path

from client_cli import statefile
from client_cli._keyboard import typed_lines
from client_cli._resume import pick_record
from client_cli.args import DEFAULT_SERVER, Options, parse_args
from client_cli.bot import BotPlan, BotTeam, run_bot
from client_cli.session import Entry, Session
from protocol import CreateRoom, JoinRoom, Resume, Role


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    try:
        return asyncio.run(run(options, statefile.state_dir()))
    except KeyboardInterrupt:
        return 130


async def run(options: Options, records: Path) -> int:
    """Play or watch from this terminal; the exit status."""
    server = options.server or DEFAULT_SERVER
    entry = entry_request(options, None)
    if options.action == "resume":
        saved = pick_record(records, options.code, options.server, show, _asker())
        if saved is None:
            return 1
        session = Session(options.server or saved.server, show, records)
        with typed_lines(session.completions) as lines:
            return await session.run(session.resume_from(saved), lines)
    if options.action == "bot":
        return await run_bot(server, entry, bot_plan(options), show, on_code=_show_code(options))
    session = Session(server, show, records)
    async with BotTeam(session, options.bots, options.bot_speed, show) as bots:
        with typed_lines(session.completions) as lines:
            return await session.run(entry, bots.hold(lines))


def bot_plan(options: Options) -> BotPlan:
    seats = options.settings.max_players if options.variant else None
    return BotPlan(options.name, options.strategy, options.bot_speed, seats)


def _show_code(options: Options) -> Callable[[str], None] | None:
    """``bot --create`` prints the room's code first, for scripts to read."""
    return (lambda code: show(f"code: {code}")) if options.variant else None


def _asker() -> Callable[[str], str] | None:
    """Asking works only when someone types at a terminal."""
    return input if sys.stdin.isatty() else None


def show(text: str) -> None:
    """Print at once; if the reader of our output went away, keep playing silently."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def entry_request(options: Options, saved: statefile.SavedSession | None) -> Entry:
    """How the session enters its room: create, join, watch, or resume a saved seat."""
    if saved is not None:
        return lambda id_: Resume(id=id_, token=saved.token, last_seq=saved.last_seq)
    if options.action in ("create", "practice") or options.variant:
        return lambda id_: CreateRoom(
            id=id_, variant=options.variant, name=options.name, settings=options.settings
        )
    role: Role = "spectator" if options.action == "watch" else "player"
    return lambda id_: JoinRoom(id=id_, code=options.code, name=options.name, role=role)


if __name__ == "__main__":
    raise SystemExit(main())
