"""``solrace``: the full-screen race client, or with ``--plain`` the line mode
(typed lines in, room news and boards out)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path

from client_cli import statefile
from client_cli.args import DEFAULT_SERVER, Options, parse_args
from client_cli.session import Entry, Session
from client_cli.tui import RaceApp, pick_glyphs
from protocol import CreateRoom, JoinRoom, Resume, Role


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    try:
        return asyncio.run(run(options, statefile.state_path()))
    except KeyboardInterrupt:
        return 130


async def run(options: Options, state_file: Path) -> int:
    """Play or watch from this terminal; the exit status."""
    server = options.server or DEFAULT_SERVER
    entry = entry_request(options, None)
    if options.action == "resume":
        saved = statefile.load(state_file)
        if saved is None:
            print(f"No saved room to resume ({state_file}); join or create one first.")
            return 1
        server = options.server or saved.server
        entry = entry_request(options, saved)
    if not options.plain and sys.stdin.isatty() and sys.stdout.isatty():
        return await run_screen(server, entry, state_file, options.ascii)
    session = Session(server, show, state_file)
    return await session.run(entry, stdin_lines())


async def run_screen(server: str, entry: Entry, state_file: Path, ascii_only: bool) -> int:
    """The full-screen client; what it noted last is printed once the screen is gone."""
    glyphs = pick_glyphs(sys.stdout.encoding, ascii_only)
    app = RaceApp(server, entry, glyphs, state_file)
    status = await app.run_async()
    for note in app.notes[-3:]:
        show(note)
    return 1 if status is None else status


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
    if options.action == "create":
        return lambda id_: CreateRoom(
            id=id_, variant=options.variant, name=options.name, settings=options.settings
        )
    role: Role = "spectator" if options.action == "watch" else "player"
    return lambda id_: JoinRoom(id=id_, code=options.code, name=options.name, role=role)


async def stdin_lines() -> AsyncIterator[str]:
    """Lines typed on stdin until it ends.

    A daemon thread does the blocking reads, so a read in progress never holds
    up the exit, and the same code serves terminals, pipes and files.
    """
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def put(line: str | None) -> None:
        try:
            loop.call_soon_threadsafe(lines.put_nowait, line)
        except RuntimeError:  # the loop closed: the client is exiting
            return

    def read() -> None:
        for line in sys.stdin:
            put(line)
        put(None)

    threading.Thread(target=read, name="stdin", daemon=True).start()
    while (line := await lines.get()) is not None:
        yield line


if __name__ == "__main__":
    raise SystemExit(main())
