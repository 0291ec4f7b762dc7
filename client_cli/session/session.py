"""A client's stay in one room, over a connection reopened and resumed when it drops.

Theory of operation: one task reads the server and hands every message, in
arrival order, to the `Tracker`, writing the lines it returns; a reply also
completes the request waiting for it. Another task takes typed lines one at
a time, and a command that talks to the server waits for its reply, so moves
go out in order, each with the version the previous one produced.

When the connection drops (or the server announces ``going_away``) the reader
reconnects with backoff for minutes, resumes with the token and the last
event seq, and resends every request still waiting for a reply. A resent
move keeps its ``move_id``, so the server never applies it twice. While it
reconnects, a typed request is queued without waiting for its reply (one
move at most, since the next would need the version the first produces) and
the player is told so; nothing typed is dropped without a word.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed

from client_cli.link.connection import Connection
from client_cli.link.outage import Outage
from client_cli.link.pending import Pending
from client_cli.link.requests import FINAL_CLOSES, NOTED_CLOSES, server_error, what, word_request
from client_cli.link.sign_in import open_as
from client_cli.link.watch_link import play_link, watch_link
from client_cli.room.tracker import Tracker
from client_cli.session.commands import WORDS, CommandError, local_text, parse_command
from client_cli.session.countdown import count_down
from client_cli.session.digest import Digest
from client_cli.session.saved_seats import SavedSeat
from client_cli.session.seat_keeper import SeatKeeper
from client_cli.words.challenges import challenge_made_text
from client_cli.words.describe import describe_error, sentence
from client_cli.words.solver_news import hint_text
from engine import Move
from protocol import (
    AskHint,
    ChallengeCreated,
    ClientMessage,
    CreateChallenge,
    CreateRoom,
    Error,
    ErrorCode,
    GoingAway,
    Hint,
    JoinChallenge,
    Joined,
    JoinRoom,
    MakeMove,
    ProtocolError,
    RaceDaily,
    Resume,
    Resumed,
    ServerMessage,
    Snapshot,
    Sync,
)

Write = Callable[[str], None]
Entry = Callable[[int], CreateRoom | JoinRoom | JoinChallenge | RaceDaily | Resume]
"""Builds the request that enters the room, given its request id."""


class Session:
    SUMMARISES_PROGRESS = True
    """Opponents' progress is written as summary lines (a front end with a live
    panel of every racer turns this off)."""

    def __init__(self, server: str, write: Write, seats_dir: Path | None = None) -> None:
        """``seats_dir``: the directory of saved seats (``None``: save none)."""
        self.server, self.write = server, write
        self.seat_keeper = SeatKeeper(seats_dir, server)
        self.tracker = Tracker()
        self.digest = Digest()
        self.pending = Pending()
        self.conn: Connection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.ticker: asyncio.Task[None] | None = None
        self.flusher: asyncio.Task[None] | None = None
        self.outage = Outage(write)
        self.name, self.bot = "", False
        """The player's name and bot mark, to take a seat again if a dropped lobby seat
        was freed."""
        self.account_key: str | None = None
        """The key of the account to sign in as, on every connection; ``None``: a guest."""
        self.news = asyncio.Event()
        """Set after every message from the server, for code that waits on the room."""
        self.last_reply: ServerMessage | None = None
        self.challenge_made: tuple[int, str] | None = None
        """The race number and words of the challenge this session last made (`challenge`)."""
        """The reply to the last request answered."""

    @property
    def reconnecting(self) -> bool:
        """The connection is down and being reopened."""
        return self.outage.active

    def now_ms(self) -> int:
        """The server clock as this client estimates it; 0 before the first connection."""
        return 0 if self.conn is None else self.conn.server_now_ms()

    def resume_from(self, saved: SavedSeat) -> Entry:
        """Enter by resuming a saved seat (it is forgotten if the token is refused)."""
        self.tracker.code, self.tracker.seat = saved.code, saved.seat
        return lambda id_: Resume(id=id_, token=saved.token, last_seq=saved.last_seq)

    async def run(self, entry: Entry, lines: AsyncIterator[str]) -> int:
        """Connect, enter the room, then take commands until ``quit``; the exit status."""
        self.conn = await open_as(self.server, self.account_key, self.write)
        if self.conn is None:
            return 1
        self.reader = asyncio.create_task(self._read())
        if self.SUMMARISES_PROGRESS:
            self.flusher = asyncio.create_task(
                self.digest.flush(self.tracker.progress_news, self.write)
            )
        commands: asyncio.Task[None] | None = None
        try:
            if not await self._enter(entry):
                return 1
            commands = asyncio.create_task(self._commands(lines))
            await asyncio.wait({self.reader, commands}, return_when=asyncio.FIRST_COMPLETED)
            return 0 if commands.done() else 1
        finally:
            await self._close(commands)

    def completions(self) -> list[str]:
        """What a typed line may complete to: the command words, then the legal moves."""
        return [*WORDS, *self.tracker.move_texts()]

    async def execute(self, line: str) -> bool:
        """Carry out one typed line; False when it asks to quit."""
        try:
            command = parse_command(line)
        except CommandError as error:
            self.write(sentence(str(error)))
            return True
        word = command.word
        if word == "quit":
            return False
        if command.move is not None:
            await self.move(command.move)
        elif word in ("help", "room", "board", "moves"):
            self.write(local_text(word, self.tracker, self.now_ms()))
        elif word == "sync":
            await self.sync()
        elif word == "hint":
            await self.ask_hint()
        elif word == "challenge":
            reply = await self.call(CreateChallenge(id=self.pending.next_id()))
            if isinstance(reply, ChallengeCreated):
                made = challenge_made_text(reply, self.server)
                race_no = self.tracker.room.race_no if self.tracker.room is not None else 0
                self.challenge_made = (race_no, made)
                self.write(made)
        elif command.request is not None:
            await self.call(command.request.model_copy(update={"id": self.pending.next_id()}))
        elif word:
            await self.call(word_request(word, self.pending.next_id()))
        return True

    async def move(self, move: Move) -> None:
        """Send one move with a fresh id and the expected version; sync if it was stale."""
        tracker = self.tracker
        if tracker.seat is None:
            self.write("Spectators cannot move.")
            return
        if tracker.version is None:
            self.write("No race is running.")
            return
        if self.reconnecting and self._move_waiting():
            self.write(
                f"Not connected, and a move is already waiting to be sent: type {move.format()}"
                " again once your board is back."
            )
            return
        request = MakeMove(
            id=self.pending.next_id(),
            move=move.format(),
            move_id=secrets.token_hex(8),
            expected_version=tracker.version,
        )
        reply = await self.call(request)
        if isinstance(reply, Error) and reply.code == ErrorCode.MOVE_STALE_VERSION:
            await self.sync()

    async def ask_hint(self) -> Hint | None:
        """Ask for a hint and show it; the reply, or ``None`` when refused or not racing.

        A refusal (not a practice room, race over, server busy) is shown with the reply.
        """
        tracker = self.tracker
        board = tracker.board
        if tracker.seat is None or board is None or board.outcome != "playing":
            self.write("Hints are for players in a race.")
            return None
        if self.reconnecting:
            self.write("Not connected: ask for the hint again once the connection is back.")
            return None
        reply = await self.call(AskHint(id=self.pending.next_id()))
        if not isinstance(reply, Hint):
            return None
        self.write(hint_text(reply, tracker.version))
        return reply

    async def sync(self) -> None:
        if self.reconnecting:
            self.write("Not connected: your board will be shown once the connection is back.")
            return
        self.tracker.expect_snapshot()
        await self.call(Sync(id=self.pending.next_id()))

    async def call(self, request: ClientMessage) -> ServerMessage | None:
        """Send a request and wait for its reply; ``None`` if the connection is gone for
        good, or if it is down now: then the request is queued and sent once it is back."""
        future = self.pending.add(request)
        if self.reconnecting:
            self.write(f"Not connected: {what(request)} will be sent once the connection is back.")
            return None
        await self._send(request)
        assert self.reader is not None
        either: set[asyncio.Future[Any]] = {future, self.reader}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        self.last_reply = future.result() if future.done() else None
        return self.last_reply

    async def _enter(self, entry: Entry) -> bool:
        request = entry(self.pending.next_id())
        if isinstance(request, CreateRoom | JoinRoom):
            self.name, self.bot = request.name, request.bot
        elif isinstance(request, JoinChallenge | RaceDaily):
            self.name, self.bot = request.name, False
        else:
            self.tracker.token = request.token
        reply = await self.call(request)
        if isinstance(reply, Resumed) and self.tracker.room is None:
            await self.sync()
        if isinstance(reply, Joined | Resumed | Snapshot):
            return True
        if isinstance(reply, Error) and reply.code == ErrorCode.AUTH_BAD_TOKEN:
            self.write("That seat is gone; join the room again.")
            self.seat_keeper.forget(self.tracker)
        return False

    async def _commands(self, lines: AsyncIterator[str]) -> None:
        async for line in lines:
            if not await self.execute(line):
                return

    async def _read(self) -> None:
        while True:
            assert self.conn is not None
            try:
                message = await self.conn.recv()
            except ProtocolError as error:
                self.write(f"Unreadable message from the server: {error.message}")
                continue
            except ConnectionClosed:
                if not await self._reconnect():
                    return
                continue
            if not await self._dispatch(message):
                return

    async def _dispatch(self, message: ServerMessage) -> bool:
        """Show one message and complete its request; False when the session must end."""
        request, future = self.pending.answered(message)
        lines = self.tracker.on_message(message)
        if isinstance(message, Joined):
            link = watch_link(self.server, message.code)
            play = play_link(self.server, message.code)
            lines.insert(min(2, len(lines)), f"Watch it in a browser: {link}")
            lines.insert(min(3, len(lines)), f"Play it in a browser: {play}")
        if isinstance(message, Error):
            lines.append(describe_error(request, message) if request else server_error(message))
        if isinstance(message, GoingAway):
            self.outage.retry_in_s = message.reconnect_in_ms / 1000
        if self.SUMMARISES_PROGRESS:
            lines += self.digest.due(self.tracker.progress_news)
        self.show(message, request, lines)
        self.seat_keeper.update(self.tracker, self.now_ms())
        if future is not None and not future.done():
            future.set_result(message)
        self._watch_countdown()
        self.news.set()
        if isinstance(request, Resume) and isinstance(message, Error):
            return await self._rejoin()
        return True

    def show(self, message: ServerMessage, request: ClientMessage | None, lines: list[str]) -> None:
        """Show what one message changed: here its lines; a full-screen front end redraws."""
        for line in lines:
            self.write(line)

    async def _rejoin(self) -> bool:
        """The resume was refused: a lobby seat is freed when its connection drops,
        so take a seat again under the same name; otherwise the session is over."""
        tracker = self.tracker
        lobby = tracker.room is not None and tracker.room.phase == "lobby"
        if not lobby or tracker.seat is None or not self.name:
            return False
        self.write("Taking a seat in the room again.")
        assert tracker.code is not None
        request = JoinRoom(
            id=self.pending.next_id(), code=tracker.code, name=self.name, bot=self.bot
        )
        self.pending.add(request)
        await self._send(request)
        return True

    async def _reconnect(self) -> bool:
        assert self.conn is not None
        final = FINAL_CLOSES.get(self.conn.close_code or 0)
        if final is not None or self.tracker.token is None:
            self.write(final or "The connection was closed.")
            return False
        if noted := NOTED_CLOSES.get(self.conn.close_code or 0):
            self.write(noted)
        conn = await self.outage.reopen(self.server, self.account_key)
        if conn is None:
            self.outage.give_up(request for request, _ in self.pending.waiting.values())
            return False
        await self._resume_on(conn)
        return True

    def _move_waiting(self) -> bool:
        return any(isinstance(request, MakeMove) for request, _ in self.pending.waiting.values())

    async def _resume_on(self, conn: Connection) -> None:
        """Resume on the new connection, then resend what was waiting for a reply."""
        tracker = self.tracker
        assert tracker.token is not None
        resume = Resume(id=self.pending.next_id(), token=tracker.token, last_seq=tracker.last_seq)
        self.conn = conn
        for request in self.pending.renew(resume):
            await self._send(request)

    async def _send(self, request: ClientMessage) -> None:
        """Send on the current connection; if it is down, the reconnect resends."""
        assert self.conn is not None
        with contextlib.suppress(ConnectionClosed):
            await self.conn.send(request)

    def _watch_countdown(self) -> None:
        target = self.tracker.countdown_target_ms()
        if target is not None and self.ticker is None:
            assert self.conn is not None
            countdown = count_down(target, self.conn.server_now_ms, self.write)
            self.ticker = asyncio.create_task(countdown)
        elif target is None and self.ticker is not None:
            self.ticker.cancel()
            self.ticker = None

    async def _close(self, commands: asyncio.Task[None] | None) -> None:
        for task in (commands, self.ticker, self.flusher, self.reader):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.seat_keeper.close(self.tracker, self.now_ms()):
            code = self.tracker.code
            kept = "seat and your bots' are" if self.seat_keeper.bots().tokens else "seat is"
            self.write(f"Your {kept} kept until the race is over: solrace resume {code}")
        if self.conn is not None:
            await self.conn.close()
