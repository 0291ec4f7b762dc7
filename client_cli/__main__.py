"""``solrace``: the full-screen race client, or with ``--plain`` the line mode
(typed lines in, room news and boards out); ``solrace bot`` runs a bot."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path

from client_cli.args import DEFAULT_SERVER, Options, parse_args
from client_cli.bots.runner import BotPlan, run_bot
from client_cli.line.plain import run_plain, show
from client_cli.records import run_records
from client_cli.records.desk import terminal_desk
from client_cli.room.tracker import Tracker
from client_cli.session import accounts, saved_seats
from client_cli.session.accounts import AccountFileError, KeptAccount, UnknownAccount
from client_cli.session.resume import pick_seat
from client_cli.session.session import Entry
from client_cli.tui import RaceApp, pick_glyphs
from client_cli.words.describe import sentence
from protocol import CreateRoom, JoinChallenge, JoinRoom, RaceDaily, Role


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    try:
        return asyncio.run(run(options, saved_seats.state_dir(), accounts.accounts_path()))
    except KeyboardInterrupt:
        return 130


async def run(options: Options, seats_dir: Path, accounts_file: Path | None = None) -> int:
    """Play, watch, run a bot or a record command from this terminal; the exit status.

    ``accounts_file``: the accounts kept (``None``: none, every room as a guest)."""
    server = options.server or DEFAULT_SERVER
    if options.records is not None:
        if accounts_file is None:
            show("No accounts file: account commands need one.")
            return 1
        desk = terminal_desk(server, accounts_file, options.account, seats_dir)
        return await run_records(desk, options.records)
    if options.action == "bot":
        entry = entry_request(options)
        return await run_bot(server, entry, bot_plan(options), show, _show_code(options))
    saved = None
    if options.action == "resume":
        saved = pick_seat(seats_dir, options.code, options.server, show, _asker())
        if saved is None:
            return 1
        server = options.server or saved.server
    try:
        account = signing_in(options, server, accounts_file)
    except (AccountFileError, UnknownAccount) as error:
        show(sentence(str(error)))
        return 1
    if account is not None:
        options = dataclasses.replace(options, name=account.name)
    elif not options.name and options.action in ("create", "join", "challenge", "daily"):
        show(f"Give your name with --name NAME: no account is kept for {server}, so you play")
        show("as a guest (solrace account create NAME makes one).")
        return 2
    key = None if account is None else account.key
    if not options.plain and sys.stdin.isatty() and sys.stdout.isatty():
        return await run_screen(server, options, saved, seats_dir, key)
    entry = entry_request(options)
    return await run_plain(
        server,
        entry,
        saved,
        seats_dir,
        bots=options.bots,
        bot_speed=options.bot_speed,
        bot_level=options.level,
        account_key=key,
    )


def signing_in(options: Options, server: str, accounts_file: Path | None) -> KeptAccount | None:
    """The account to enter the room as: ``--account``'s, else the one in use on the
    server; ``None`` for a guest (``--guest``, or none kept)."""
    if options.guest or accounts_file is None:
        return None
    return accounts.load(accounts_file).chosen(server, options.account)


async def run_screen(
    server: str,
    options: Options,
    saved: saved_seats.SavedSeat | None,
    seats_dir: Path,
    account_key: str | None = None,
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
        bot_level=options.level,
    )
    app.session.account_key = account_key
    if saved is not None:
        app.resume(saved)
    status = await app.run_async()
    for note in app.notes[-3:]:
        show(note)
    return 1 if status is None else status


def bot_plan(options: Options) -> BotPlan:
    seats = options.settings.max_players if options.variant else None
    return BotPlan(options.name, options.strategy, options.bot_speed, seats, level=options.level)


def _show_code(options: Options) -> Callable[[Tracker], None] | None:
    """``bot --create`` prints the room's code first, for scripts to read."""
    return (lambda tracker: show(f"code: {tracker.code}")) if options.variant else None


def _asker() -> Callable[[str], str] | None:
    """Asking works only when someone types at a terminal."""
    return input if sys.stdin.isatty() else None


def entry_request(options: Options) -> Entry:
    """How the session enters its room: create (with bots, or to practise), join or watch;
    a bot says it is one, and its level."""
    bot = options.action == "bot"
    level = options.level if bot else None
    if options.action == "challenge":
        return lambda id_: JoinChallenge(
            id=id_, code=options.code, name=options.name, ghosts=options.ghosts
        )
    if options.action == "daily":
        return lambda id_: RaceDaily(id=id_, variant=options.variant, name=options.name)
    if options.action in ("create", "practice") or options.variant:
        return lambda id_: CreateRoom(
            id=id_,
            variant=options.variant,
            name=options.name,
            settings=options.settings,
            bot=bot,
            level=level,
        )
    role: Role = "spectator" if options.action == "watch" else "player"
    return lambda id_: JoinRoom(
        id=id_, code=options.code, name=options.name, role=role, bot=bot, level=level
    )


if __name__ == "__main__":
    raise SystemExit(main())
