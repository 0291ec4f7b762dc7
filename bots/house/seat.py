"""One house bot in its seat: an ordinary protocol client over its own connection.

Theory of operation: `HouseSeat.run` connects, says ``hello`` and resumes the
seat with the token the server gave (``last_seq`` 0 the first time, so the
server sends the room afresh), then two tasks share the seat. The reader
takes every server message into the seat's `protocol.follow.Follower` and
completes the request waiting for its reply; the player asks the seat's
`bots.player.BotPlayer` for its next line on a frozen `Sight` of the seat,
off the event loop (the strong level searches for a while, and the event
loop keeps every other seat moving meanwhile: `bots.house.decide`), waits the pause the player
asks for, and sends the line as a request, one at a time, each move with a
fresh ``move_id`` and the version it was chosen on.

When the connection drops (or the server says ``going_away``) the reader
reconnects with backoff, resumes with the last event seq and sends again
every request still waiting for its reply (a move keeps its ``move_id``, so
the server never applies it twice). A line refused as too many requests is
sent again after a pause that doubles while refusals go on. The seat is
gone, and `run` returns why, when its resume is refused (the seat or the
room is gone), when the room frees the seat, when another connection takes
it over, or when the server stays out of reach.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import NoReturn

from websockets.exceptions import ConnectionClosed

from bots.house.control import Drive
from bots.house.decide import Decider
from bots.house.link import Link, Sleep, open_link
from bots.player import BotPlan, BotPlayer, Sight, sight_of
from protocol import (
    AskHint,
    ClientMessage,
    CloseCode,
    Error,
    ErrorCode,
    GoingAway,
    Hint,
    MakeMove,
    ProtocolError,
    Ready,
    Resign,
    Resume,
    Resumed,
    ServerMessage,
    Sync,
)
from protocol.follow import Follower

Decide = Callable[[BotPlayer, Sight, Hint | None], Awaitable[tuple[BotPlayer, str | None]]]
"""Runs a player's decision off the event loop: the player after it, and its line
(`bots.house.decide.Decider`)."""
Connect = Callable[[str, float, Sleep], Awaitable[Link | None]]
"""Opens a connection after a first wait, retrying with backoff (`open_link`)."""

READY_PAUSE_S = 2.0
"""The longest pause before a house bot says ready."""
SLOWED_DOWN_S = (1.0, 16.0)
"""The first and the longest pause before sending again what was refused as too many."""
FINAL_CLOSES: dict[int, str] = {
    CloseCode.REPLACED: "replaced",
    CloseCode.BAD_VERSION: "bad-version",
    CloseCode.POLICY: "rate-limit",
}
"""Closes after which reconnecting cannot help, with the reason the seat is gone."""

log = logging.getLogger(__name__)


class SeatGone(Exception):
    """The seat cannot be played any more; the message is the reason."""


class HouseSeat:
    def __init__(
        self,
        url: str,
        drive: Drive,
        on_driving: Callable[[str], None],
        *,
        speed: float = 1.0,
        sleep: Sleep = asyncio.sleep,
        decide: Decide | None = None,
        connect: Connect | None = None,
    ) -> None:
        """``on_driving`` hears the seat each time its resume is accepted; ``speed``
        scales the bot's pauses; ``decide`` runs its decisions (default: in threads)."""
        self.url, self.drive, self.on_driving = url, drive, on_driving
        self.sleep, self.decide = sleep, decide or Decider()
        self.connect = connect or open_link
        plan = BotPlan(
            drive.seat,
            speed=speed,
            seats=1,
            seed=drive.seed,
            rematches=True,
            level=drive.level,
            ready_pause_s=READY_PAUSE_S,
        )
        self.player = BotPlayer(plan)
        self.follower = Follower()
        self.follower.token = drive.token
        self.link: Link | None = None
        self.online = asyncio.Event()
        """Set while the seat's connection is up and resumed."""
        self.news = asyncio.Event()
        """Set after every message from the server."""
        self.waiting: dict[int, tuple[ClientMessage, asyncio.Future[ServerMessage]]] = {}
        self.last_id = 0
        self.retry_in_s = 0.0

    async def run(self) -> str:
        """Play the seat until it is gone; the reason it is."""
        try:
            await self._enter()
            await self._race()
        except SeatGone as gone:
            return str(gone)
        finally:
            if self.link is not None:
                await self.link.close()

    async def _race(self) -> NoReturn:
        """Read and play until one of the two stops: the reader, by `SeatGone`."""
        tasks = {asyncio.create_task(self._read()), asyncio.create_task(self._play())}
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for task in done:
            task.result()
        raise AssertionError("the reader and the player stop only by raising")

    async def _enter(self) -> None:
        """Connect and resume the seat, then send again what waits for a reply."""
        while True:
            link = await self.connect(self.url, self.retry_in_s, self.sleep)
            self.retry_in_s = 0.0
            if link is None:
                raise SeatGone("unreachable")
            self.link = link
            try:
                await self._resume()
            except ConnectionClosed:
                self._check_close()
                continue
            break
        self.on_driving(self.drive.seat)
        self._check_seated()
        self.online.set()
        for request, _ in self.waiting.values():
            await link.send(request)

    async def _resume(self) -> None:
        resume = Resume(id=self._next_id(), token=self.drive.token, last_seq=self.follower.last_seq)
        reply = await self._exchange(resume)
        if isinstance(reply, Error):
            raise SeatGone(reply.code.value)
        if isinstance(reply, Resumed) and self.follower.room is None:
            self.follower.expect_snapshot()
            await self._exchange(Sync(id=self._next_id()))

    async def _exchange(self, request: Resume | Sync) -> ServerMessage:
        """Send ``request`` before the seat is online and read up to its reply,
        following the room meanwhile."""
        assert self.link is not None
        await self.link.send(request)
        while True:
            message = await self._recv()
            self.follower.follow(message)
            if getattr(message, "id", None) == request.id:
                return message

    async def _read(self) -> NoReturn:
        while True:
            try:
                message = await self._recv()
            except ConnectionClosed:
                self._check_close()
                self.online.clear()
                log.info("%s: connection lost, reconnecting", self.drive.seat)
                await self._enter()
                continue
            self.follower.follow(message)
            self._answer(message)
            if isinstance(message, GoingAway):
                self.retry_in_s = message.reconnect_in_ms / 1000
            self._check_seated()
            self.news.set()

    async def _recv(self) -> ServerMessage:
        """The next readable message (one that cannot be read is logged and skipped)."""
        while True:
            assert self.link is not None
            try:
                return await self.link.recv()
            except ProtocolError as error:
                log.warning("%s: unreadable message: %s", self.drive.seat, error.message)

    def _check_close(self) -> None:
        """A close after which reconnecting cannot help ends the seat."""
        assert self.link is not None
        final = FINAL_CLOSES.get(self.link.close_code or 0)
        if final is not None:
            raise SeatGone(final)

    def _answer(self, message: ServerMessage) -> None:
        request_id = getattr(message, "id", None)
        if request_id is None or request_id not in self.waiting:
            return
        _, future = self.waiting.pop(request_id)
        if not future.done():
            future.set_result(message)

    def _check_seated(self) -> None:
        """The room freed the seat (the host removed the bot, or the room closed)."""
        room, seat = self.follower.room, self.follower.seat
        if room is not None and seat is not None and all(p.seat != seat for p in room.players):
            raise SeatGone("seat-freed")

    async def _play(self) -> None:
        hint: Hint | None = None
        slowed = SLOWED_DOWN_S[0]
        while True:
            self.news.clear()
            sight = sight_of(self.follower)
            self.player, line = await self.decide(self.player, sight, hint)
            if not line:
                await self.news.wait()
                continue
            await self.sleep(self.player.pause_s(line))
            reply = await self._call(self._request(line, sight))
            hint = reply if isinstance(reply, Hint) else None
            if isinstance(reply, Error) and reply.code == ErrorCode.PROTO_RATE_LIMITED:
                self.player.undo(line)
                await self.sleep(slowed)
                slowed = min(SLOWED_DOWN_S[1], slowed * 2)
                continue
            slowed = SLOWED_DOWN_S[0]
            if isinstance(reply, Error) and reply.code == ErrorCode.MOVE_STALE_VERSION:
                self.follower.expect_snapshot()
                await self._call(Sync(id=self._next_id()))

    def _request(self, line: str, sight: Sight) -> ClientMessage:
        request_id = self._next_id()
        if line == "ready":
            return Ready(id=request_id, ready=True)
        if line == "resign":
            return Resign(id=request_id)
        if line == "hint":
            return AskHint(id=request_id)
        assert sight.version is not None
        move_id = secrets.token_hex(8)
        return MakeMove(id=request_id, move=line, move_id=move_id, expected_version=sight.version)

    async def _call(self, request: ClientMessage) -> ServerMessage:
        """Send ``request`` and wait for its reply; while the seat is offline, the
        reconnect sends it (and sends again what the old connection left unanswered)."""
        future: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        self.waiting[request.id] = (request, future)
        if self.online.is_set():
            assert self.link is not None
            await self.link.send(request)
        return await future

    def _next_id(self) -> int:
        self.last_id += 1
        return self.last_id
