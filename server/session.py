"""One WebSocket connection: handshake, rate limit, decode, dispatch, reply.

A session reads its frames one at a time, so one player's requests are
handled in the order they were sent. Room events reach it from the hub; while
it is joining or resuming (``paused``) they are held and sent after the reply,
each seq once, in order.
"""

from __future__ import annotations

import asyncio
import logging
import time

from pydantic import BaseModel
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

import engine
from protocol import (
    PROTOCOL_VERSION,
    CloseCode,
    Error,
    ErrorCode,
    Hello,
    ProtocolError,
    Welcome,
    decode_client,
    encode,
    encode_event_frame,
    error_reply,
)
from server import handlers
from server._services import Services, now_ms
from server.ratelimit import TokenBucket
from server.room import RoomError
from server.store import StoreUnavailable

_log = logging.getLogger(__name__)
HELLO_TIMEOUT_S = 10.0


class Session:
    def __init__(self, conn: ServerConnection, services: Services) -> None:
        self.conn, self.services = conn, services
        self.code: str | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.last_seq = 0
        self.paused = False
        self.held: list[tuple[int, bytes]] = []
        self.boards: list[bytes] = []
        """Spectator boards as of the reply's seq, sent right after it."""
        self.game: engine.GameState | None = None
        self.version = -1
        self.race_no = 0
        config = services.config
        self.bucket = TokenBucket(config.rate_per_s, config.rate_burst, time.monotonic())
        self.strikes = 0
        self.closing: asyncio.Task[None] | None = None
        """The closing handshake this side started; frames still arriving are dropped."""

    async def run(self) -> None:
        try:
            if await self._hello():
                async for frame in self.conn:
                    if self.closing is None:
                        await self._handle(frame)
        except ConnectionClosed:
            pass
        finally:
            await handlers.disconnected(self)
            if self.closing is not None:
                await self.closing

    async def send(self, message: BaseModel) -> None:
        await self.conn.send(encode(message))

    def hold(self, seq: int, frame: bytes) -> None:
        self.held.append((seq, frame))

    def hold_event(self, seq: int, body: bytes) -> None:
        self.hold(seq, encode_event_frame(seq, body))

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

    async def resync(self) -> None:
        """Events were lost to trimming: replace what the client knows with a snapshot."""
        await handlers.send_snapshot(self, None)

    async def _hello(self) -> bool:
        """Wait for ``hello``, answering anything else with an error; False: closed."""
        deadline = time.monotonic() + HELLO_TIMEOUT_S
        message = None
        while not isinstance(message, Hello):
            try:
                frame = await asyncio.wait_for(self.conn.recv(), deadline - time.monotonic())
            except TimeoutError:
                await self.conn.close(CloseCode.HELLO_TIMEOUT, "no hello")
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
        await self.send(Welcome(id=message.id, version=PROTOCOL_VERSION, server_ms=now_ms()))
        return True

    async def _decode(self, frame: str | bytes) -> handlers.ClientMessage | None:
        """The message, or None after answering what was wrong with the frame."""
        if isinstance(frame, str):
            self._close(CloseCode.PROTOCOL_ERROR, "messages are binary msgpack frames")
            return None
        within_rate = self.bucket.take(time.monotonic())
        try:
            message = decode_client(frame)
        except ProtocolError as error:
            self.services.metrics.errors.inc()
            await (self.send(error_reply(error)) if within_rate else self._over_rate(None))
            return None
        if not within_rate:
            await self._over_rate(message.id)
            return None
        return message

    async def _over_rate(self, request_id: int | None) -> None:
        """Refuse a request over the rate limit; close after too many such."""
        self.services.metrics.errors.inc()
        self.strikes += 1
        if self.strikes > self.services.config.max_rate_strikes:
            self._close(CloseCode.POLICY, "rate limit exceeded")
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

    async def _handle(self, frame: str | bytes) -> None:
        message = await self._decode(frame)
        if message is None:
            return
        try:
            reply = await handlers.handle(self, message)
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
        if reply is not None:
            await self.send(reply)
        if self.paused:
            await self.release()
