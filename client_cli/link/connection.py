"""One WebSocket to a solrace server: the hello exchange, then messages in and out.

The connection knows nothing about rooms or commands; it frames and checks
messages and keeps the offset between the server clock and this machine's
monotonic clock, measured around ``hello``, for countdowns and race timers.
Given an account key it signs in right after ``hello``, on every connection
(so a reconnect is signed in again); a refused key is kept in `refusal`, for
the caller to say so: a seat already taken outlives its account's sign-in.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from protocol import (
    PROTOCOL_VERSION,
    AccountInfo,
    Error,
    ErrorCode,
    Hello,
    ProtocolError,
    ServerMessage,
    SignedIn,
    SignIn,
    Welcome,
    decode_server,
    encode,
)
from protocol.limits import MAX_SERVER_FRAME

CONNECT_TIMEOUT_S = 10.0
RECONNECT_FOR_S = 180.0
"""How long a dropped client keeps trying to get back before it gives up."""
MAX_BACKOFF_S = 5.0
CLIENT_NAME = "solrace-cli"


class ConnectFailed(Exception):
    """No usable connection: the server is unreachable, or refused the hello."""


class Connection:
    def __init__(self, socket: ClientConnection, offset_ms: float) -> None:
        self.socket = socket
        self.offset_ms = offset_ms
        """Server clock minus local monotonic clock, in milliseconds."""
        self.account: AccountInfo | None = None
        """The account this connection is signed in as."""
        self.refusal: Error | None = None
        """The server's refusal of the account key given to `open`."""

    @classmethod
    async def open(cls, url: str, client: str = CLIENT_NAME, key: str | None = None) -> Connection:
        """Connect and agree on the protocol version, then sign in with ``key`` if given;
        `ConnectFailed` when that fails (a refused key is not a failure: see `refusal`)."""
        try:
            socket = await connect(
                url, compression=None, max_size=MAX_SERVER_FRAME, open_timeout=CONNECT_TIMEOUT_S
            )
        except (OSError, TimeoutError, InvalidURI, InvalidHandshake) as error:
            raise ConnectFailed(f"cannot connect to {url}: {error}") from None
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                connection = await cls._hello(socket, client)
                if key is not None:
                    await connection._sign_in(key)
                return connection
        except (ConnectionClosed, ProtocolError, TimeoutError) as error:
            await socket.close()
            raise ConnectFailed(f"no welcome from {url}: {error}") from None
        except BaseException:
            await socket.close()
            raise

    @classmethod
    async def _hello(cls, socket: ClientConnection, client: str) -> Connection:
        sent = time.monotonic()
        await socket.send(encode(Hello(id=0, version=PROTOCOL_VERSION, client=client)))
        reply = _decode(await socket.recv())
        received = time.monotonic()
        if isinstance(reply, Error):
            raise ConnectFailed(f"the server refused: {reply.code.value}: {reply.message}")
        if not isinstance(reply, Welcome):
            raise ConnectFailed(f"the server answered hello with {reply.type!r}")
        offset = reply.server_ms - (sent + received) * 500
        return cls(socket, offset)

    async def _sign_in(self, key: str) -> None:
        """Sign in (request id 0, as ``hello``: the session's own ids start at 1)."""
        await self.send(SignIn(id=0, key=key))
        reply = await self.recv()
        if isinstance(reply, SignedIn):
            self.account = reply.account
        elif isinstance(reply, Error):
            self.refusal = reply
        else:
            raise ConnectFailed(f"the server answered sign_in with {reply.type!r}")

    def server_now_ms(self) -> int:
        """The server clock now, as estimated from the hello round trip."""
        return round(time.monotonic() * 1000 + self.offset_ms)

    async def send(self, message: BaseModel) -> None:
        await self.socket.send(encode(message))

    async def recv(self) -> ServerMessage:
        """The next message; `ProtocolError` for a frame that cannot be read,
        `websockets.exceptions.ConnectionClosed` once the connection is gone."""
        return _decode(await self.socket.recv())

    @property
    def close_code(self) -> int | None:
        return self.socket.close_code

    async def close(self) -> None:
        await self.socket.close()


def _decode(frame: str | bytes) -> ServerMessage:
    if isinstance(frame, str):
        raise ProtocolError(ErrorCode.PROTO_MALFORMED, "the server sent a text frame")
    return decode_server(frame)


async def reconnect(
    url: str,
    first_delay_s: float = 0.0,
    *,
    on_retry: Callable[[float], None] | None = None,
    give_up_after_s: float = RECONNECT_FOR_S,
    open_connection: Callable[[str], Awaitable[Connection]] = Connection.open,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Connection | None:
    """A new connection after a drop, retrying with doubling waits (at most
    `MAX_BACKOFF_S` apart) for ``give_up_after_s``; ``None`` if none comes.

    ``on_retry`` hears the seconds spent so far after each failed attempt.
    """
    started, delay = clock(), first_delay_s
    while True:
        await sleep(delay)
        try:
            return await open_connection(url)
        except ConnectFailed:
            waited = clock() - started
            if waited >= give_up_after_s:
                return None
            if on_retry is not None:
                on_retry(waited)
            delay = min(MAX_BACKOFF_S, max(0.25, delay * 2), give_up_after_s - waited)
