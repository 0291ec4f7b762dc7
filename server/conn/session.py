"""One WebSocket connection: handshake, rate limit, decode, dispatch, reply.

A session reads its frames one at a time, so one player's requests are
handled in the order they were sent; each request's handler returns the reply
and the session sends it. On shutdown (`drain`) it stops reading from the
network, answers every frame already read, then sends ``going_away`` and
closes with 1001. Room events reach it from the hub; while a request
is joining, resuming or finishing the player's race (``paused``) they are held
and sent after the reply, each seq once, in order. The session's state changes
only through its own methods. The place it holds in a room (room, seat, token,
the player's kept game, the dead-end watch) is an object of its own,
`server.conn.seat.Seat` (``place``), which the move path works on.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from pydantic import BaseModel
from websockets.asyncio.server import ServerConnection, broadcast
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol import (
    PROTOCOL_VERSION,
    ClientMessage,
    CloseCode,
    Error,
    ErrorCode,
    GoingAway,
    Hello,
    ProtocolError,
    Snapshot,
    Welcome,
    decode_client,
    encode,
    encode_event_frame,
    error_reply,
    peek_request_id,
)
from server.conn.fairconn import FairConnection, unsent_bytes, writes_held_back
from server.conn.frames import Frames
from server.conn.seat import Seat
from server.lifecycle.room import RoomError
from server.limits.ratelimit import TokenBucket
from server.services import Services
from server.store import StoreUnavailable

_log = logging.getLogger(__name__)
HELLO_TIMEOUT_S = 10.0
RECONNECT_IN_MS = 500
GOING_AWAY_TEXT = "server restarting; resume and resend unanswered moves"

Reply = BaseModel | bytes
"""A handler's answer: a message, or one already encoded (the move ack is packed as bytes)."""


class Requests(Protocol):
    """What a session hands its requests to (`server.requests.lobby`)."""

    async def handle(self, session: Session, message: ClientMessage) -> Reply: ...

    async def current_snapshot(self, session: Session, request_id: int | None) -> Snapshot: ...

    async def disconnected(self, session: Session) -> None: ...


class Session:
    def __init__(
        self, conn: FairConnection, services: Services, requests: Requests, address: str
    ) -> None:
        self.conn: ServerConnection = conn
        self.fail_now = conn.fail_now
        self.services, self.requests = services, requests
        self.address = address
        """The client address its limits are counted against."""
        self.place = Seat(self, services)
        """The room, seat and token this socket holds, with the kept game."""
        self.account = ""
        """The id of the account this connection signed in as ('': a guest)."""
        self.last_seq = 0
        self.paused = False
        self.held: list[tuple[int, bytes]] = []
        self.boards: list[bytes] = []
        """Spectator boards as of the reply's seq, sent right after it."""
        config, self.clock = services.config, services.clock
        self.bucket = TokenBucket(config.rate_per_s, config.rate_burst, self.clock.monotonic())
        self.strikes = 0
        self.closing: asyncio.Task[None] | None = None
        """The closing handshake this side started; frames still arriving are dropped."""
        self.frames = Frames(conn)
        self.leaving = False
        """``going_away`` is sent: nothing else may follow it."""

    async def run(self) -> None:
        try:
            if await self._hello():
                while (frame := await self.frames.next()) is not None:
                    if self.closing is None:
                        await self._handle(frame)
                    if self.frames.waiting():
                        await asyncio.sleep(0)  # every other connection's turn before the next
            if self.frames.stopped:
                await self._go_away()
        except ConnectionClosed:
            pass
        finally:
            self.place.dead_end.stop()
            await self.requests.disconnected(self)
            if self.closing is not None:
                await self.closing

    def drain(self) -> None:
        """Shut down: read nothing more from the network, answer every frame already read.

        Then `run` sends ``going_away`` and closes with 1001.
        """
        self.frames.stop()

    def can_send(self) -> bool:
        """Whether a pushed frame may be written now; a client too far behind is closed.

        A client whose unsent bytes are over ``send_buffer_limit_bytes`` is
        closed with 4003 instead: pushing more would only grow the buffer.
        """
        if self.leaving:
            return False
        limit = self.services.config.send_buffer_limit_bytes
        if unsent_bytes(self.conn) > limit:
            self._close(CloseCode.SLOW_READER, "too far behind reading; resume")
            return False
        return True

    async def send(self, message: BaseModel) -> None:
        await self.conn.send(encode(message))

    def bind(self, code: str, seat: int | None, token_hash: str) -> None:
        """Take a seat (or a spectator's place) in a room, under a player token."""
        self.place.bind(code, seat, token_hash)
        self.services.by_token[token_hash] = self

    async def unbind(self) -> None:
        """Leave the room's fan-out and give up the token; the socket stays open."""
        place = self.place
        if place.code is not None:
            await self.services.hub.remove(place.code, self)
        by_token = self.services.by_token
        if place.token_hash is not None and by_token.get(place.token_hash) is self:
            del by_token[place.token_hash]
        place.clear()
        self.last_seq = 0

    async def replaced(self) -> None:
        """The token was resumed on another socket: unbind and close this one."""
        await self.unbind()
        await self.conn.close(CloseCode.REPLACED, "resumed on another connection")

    async def dismiss(self, code: CloseCode, reason: str) -> None:
        """Unbind, then start closing with `code` (frames still arriving are dropped)."""
        await self.unbind()
        self._close(code, reason)

    def saw(self, seq: int) -> None:
        """The client has every room event up to `seq`."""
        self.last_seq = max(self.last_seq, seq)

    def pause(self) -> None:
        """Hold room events until the reply to the current request has gone out."""
        self.paused = True

    def admit(self, seq: int, frame: bytes) -> bool:
        """An event from the hub: True if it is to be sent now; held while paused."""
        if self.paused:
            self.held.append((seq, frame))
            return False
        if seq > self.last_seq and self.can_send():
            self.last_seq = seq
            return True
        return False

    def hold_event(self, seq: int, body: bytes) -> None:
        self.held.append((seq, encode_event_frame(seq, body)))

    def hold_board(self, frame: bytes) -> None:
        self.boards.append(frame)

    async def release(self) -> None:
        """Send the held boards, then the held events above the last seq seen, in order."""
        held, self.held = sorted(self.held, key=lambda item: item[0]), []
        boards, self.boards = self.boards, []
        self.paused = False
        for frame in boards:
            await self.conn.send(frame)
        for seq, frame in held:
            if seq > self.last_seq:
                self.last_seq = seq
                await self.conn.send(frame)

    def race_started(self, progress: int, start_at_ms: int) -> None:
        """A race in the room is on: a racer's dead-end watch starts from its start."""
        self.place.race_started(progress, start_at_ms)

    async def resync(self) -> None:
        """Events were lost to trimming: replace what the client knows with a snapshot."""
        if self.place.code is not None and not self.leaving:
            await self.send(await self.requests.current_snapshot(self, None))

    async def _hello(self) -> bool:
        """Wait for ``hello``, answering anything else with an error; False: closed."""
        deadline = self.clock.monotonic() + HELLO_TIMEOUT_S
        message = None
        while not isinstance(message, Hello):
            try:
                async with self.clock.timeout(deadline - self.clock.monotonic()):
                    frame = await self.frames.next()
            except TimeoutError:
                await self.conn.close(CloseCode.HELLO_TIMEOUT, "no hello")
                return False
            if frame is None:
                return False
            message = await self._decode(frame)
            if self.closing is not None:
                return False
            if message is not None and not isinstance(message, Hello):
                text = "the first message must be hello"
                await self.send(Error(id=message.id, code=ErrorCode.PROTO_NO_HELLO, message=text))
        if message.version != PROTOCOL_VERSION:
            text = f"this server speaks protocol version {PROTOCOL_VERSION}"
            await self.send(Error(id=message.id, code=ErrorCode.PROTO_VERSION, message=text))
            await self.conn.close(CloseCode.BAD_VERSION, "unsupported protocol version")
            return False
        await self.send(
            Welcome(id=message.id, version=PROTOCOL_VERSION, server_ms=self.clock.now_ms())
        )
        return True

    async def _go_away(self) -> None:
        """Every frame read is answered: say ``going_away``, close with 1001.

        Reading resumes so that the client's close reply is seen; frames that
        arrive meanwhile are dropped unread (the client resends after resume).
        """
        self.leaving = True
        self.frames.restart()
        if self.closing is None:
            await self.send(GoingAway(reconnect_in_ms=RECONNECT_IN_MS, message=GOING_AWAY_TEXT))
            self._close(CloseCode.GOING_AWAY, "server shutting down")
        async for _ in self.conn:
            pass

    async def _decode(self, frame: str | bytes) -> ClientMessage | None:
        """The message, or None after answering what was wrong with the frame."""
        if isinstance(frame, str):
            self._close(CloseCode.PROTOCOL_ERROR, "messages are binary msgpack frames")
            return None
        if not self.bucket.take(self.clock.monotonic()):
            await self._over_rate(peek_request_id(frame))  # refused unread: cheap
            return None
        try:
            return decode_client(frame)
        except ProtocolError as error:
            self.services.metrics.errors.inc()
            await self.send(error_reply(error))
            return None

    async def _over_rate(self, request_id: int | None) -> None:
        """Refuse a request over the rate limit; close after too many such."""
        self.services.metrics.errors.inc()
        self.strikes += 1
        if self.strikes > self.services.config.max_rate_strikes:
            self._fail(CloseCode.POLICY, "rate limit exceeded")
            return
        text = "too many requests; slow down and send it again"
        await self.send(Error(id=request_id, code=ErrorCode.PROTO_RATE_LIMITED, message=text))

    def _close(self, code: CloseCode, reason: str) -> None:
        """Start closing, without waiting here for the handshake to end.

        The read loop must keep draining frames the client already sent: while
        many are queued the connection stops reading, and the client's close
        reply behind them would not be seen until the close timeout.
        """
        if self.closing is None:
            self.closing = asyncio.create_task(self.conn.close(code, reason))

    def _fail(self, code: CloseCode, reason: str) -> None:
        """Close at once, without reading what the peer still sends (it is abusing)."""
        if self.closing is None:
            self.closing = asyncio.create_task(self.fail_now(code, reason))

    async def _handle(self, frame: str | bytes) -> None:
        message = await self._decode(frame)
        if message is None:
            return
        try:
            reply: Reply = await self.requests.handle(self, message)
        except RoomError as error:
            self.services.metrics.errors.inc()
            version = getattr(error, "version", None)
            reply = Error(id=message.id, code=error.code, message=error.message, version=version)
        except StoreUnavailable as error:
            _log.warning("request %s failed: %s (%r)", message.type, error, error.__cause__)
            self.services.metrics.errors.inc()
            text = "storage is unavailable right now; send the request again shortly"
            reply = Error(id=message.id, code=ErrorCode.SERVER_BUSY, message=text)
        except ConnectionClosed:
            raise
        except Exception:
            _log.exception("request %s failed", message.type)
            self.services.metrics.errors.inc()
            text = "the server failed on this request; it may not have been applied"
            reply = Error(id=message.id, code=ErrorCode.SERVER_INTERNAL, message=text)
        frame = reply if isinstance(reply, bytes) else encode(reply)
        if not self._written_now(frame):
            await self.conn.send(frame)
        if self.paused:
            await self.release()

    def _written_now(self, frame: bytes) -> bool:
        """Write a reply at once, as `broadcast` writes, while the connection is open and
        its writes are not held back; False: it is for `send`, which waits for the client
        to read (or raises `ConnectionClosed`). `send` would not wait either in the first
        case, but its checks and context cost more than the write on a move's path."""
        conn = self.conn
        if conn.state is not State.OPEN or writes_held_back(conn):
            return False
        broadcast((conn,), frame)
        return True
