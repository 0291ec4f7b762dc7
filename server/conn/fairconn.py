"""A WebSocket connection that gives every other connection its turn.

websockets parses all the bytes of one socket read at once, and a read may
hold many thousands of tiny frames: parsing them alone would hold the event
loop for a long time while every other room waits. `FairConnection` feeds the
parser at most `frames_per_turn` frames per event-loop turn. The rest wait in
a backlog with the socket paused, and are fed on later turns, after the other
connections' callbacks, and only while the frames already parsed are being
read (the parser's own flow control). Until the handshake is done only the
HTTP request is fed. Frame boundaries are found by reading the frame headers
(RFC 6455, section 5.2), which costs far less than parsing.

It also counts itself against its client address's limits from admission
(`admit`) until the connection is lost, and can be failed at once
(`fail_now`): close frame, then the TCP connection, ignoring whatever the
peer still sends. A lost connection drops the references that tie its objects
into cycles (`connection_lost`), so reference counting frees it at once: left
to the cycle collector, a flood of short connections (an abuser reconnecting
as fast as it is refused) piles up tens of thousands of objects, freed in one
pause of 60 to 100 ms that every room waits through.

This module owns every use the server makes of websockets' asyncio connection
beyond its documented API (`recv`, `send`, `close`, `state`, `request`, ... and
subclassing `ServerConnection` for `serve`'s `create_connection`): the protocol
callbacks it overrides and the `handshake` it wraps, the frame queue's `pause`
and `resume` hooks (`recv_messages`), the sans-I/O `protocol` with its parser,
`send_data`, the `transport`, `loop` and `paused` attributes. The rest of the
server reaches them through the functions at the end (`frames_waiting`,
`unsent_bytes`, ...). tests/server/conn/test_websockets_contract.py checks that
each is still there and behaves, and pyproject.toml allows only the websockets
releases the suite has run against.
"""

from __future__ import annotations

import asyncio
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

from server.limits.admission import AddressLimits

_END_OF_HEAD = b"\r\n\r\n"


def frames_end(data: bytes | bytearray, count: int) -> int:
    """The offset just after the first `count` whole frames of `data`.

    A frame not all there yet is included whole (its bytes so far): it can only
    complete later. Fewer than `count` frames: the length of `data`.
    """
    offset = 0
    for _ in range(count):
        size = _frame_size(data, offset)
        if size is None or offset + size >= len(data):
            return len(data)
        offset += size
    return offset


def _frame_size(data: bytes | bytearray, offset: int) -> int | None:
    """Header plus payload size of the frame at `offset`; None if the header is cut short."""
    if len(data) - offset < 2:
        return None
    masked, length = data[offset + 1] & 0x80, data[offset + 1] & 0x7F
    head = 2
    if length == 126:
        head, length = 4, int.from_bytes(data[offset + 2 : offset + 4], "big")
    elif length == 127:
        head, length = 10, int.from_bytes(data[offset + 2 : offset + 10], "big")
    if len(data) - offset < head:
        return None
    return head + (4 if masked else 0) + length


def _nothing() -> None:
    pass


class FairConnection(ServerConnection):
    frames_per_turn = 4
    limits: AddressLimits | None = None
    """Set by `connection_class`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.backlog = bytearray()
        self.queue_full = False
        self.failed = False
        self.feeding: asyncio.Handle | None = None
        self.client_address: str | None = None
        """The address counted against the limits, once admitted."""

    def admit(self, address: str) -> str | None:
        """Count this connection against `address`'s limits; None, or why it is refused."""
        assert self.limits is not None and self.client_address is None
        refused = self.limits.admit(address)
        if refused is None:
            self.client_address = address
        return refused

    async def fail_now(self, code: int, reason: str) -> None:
        """Send a close frame, end the TCP stream, ignore what the peer still sends.

        Returns once the peer has closed its side, or after the close timeout.
        """
        self.failed = True
        self.backlog.clear()
        if self.state is State.OPEN:
            self.protocol.fail(code, reason)
            self.send_data()
        self._resume_reading()  # to see the peer close; what it sends is dropped
        await self.close(code, reason)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.recv_messages.pause = self._parsed_queue_full
        self.recv_messages.resume = self._parsed_queue_drained

    def connection_lost(self, exc: Exception | None) -> None:
        if self.feeding is not None:
            self.feeding.cancel()
        self.backlog.clear()
        if self.limits is not None and self.client_address is not None:
            self.limits.release(self.client_address)
        super().connection_lost(exc)
        # Each ties this connection's objects into a cycle: the reader's flow-control
        # callbacks are methods of this connection, and the protocol's parser, a
        # suspended generator, holds the protocol. Neither runs again.
        self.recv_messages.pause = self.recv_messages.resume = _nothing
        self.protocol.parser.close()

    def data_received(self, data: bytes) -> None:
        if self.failed:
            return
        if not self.backlog and self._feedable(data) == len(data):
            super().data_received(data)
            return
        self.backlog += data
        self.transport.pause_reading()
        self._schedule()

    def eof_received(self) -> None:
        # Reading is paused while a backlog waits, so this is not expected with
        # one; if it happens, the order of the stream still holds.
        if self.backlog:
            rest = bytes(self.backlog)
            self.backlog.clear()
            super().data_received(rest)
        super().eof_received()

    async def handshake(self, *args: Any, **kwargs: Any) -> None:
        await super().handshake(*args, **kwargs)
        self._schedule()

    def _feedable(self, data: bytes | bytearray) -> int:
        """How many bytes of `data` the parser may take this turn."""
        if self.state is State.CONNECTING:
            if self.request is not None:
                return 0
            head = data.find(_END_OF_HEAD)
            return len(data) if head < 0 else head + len(_END_OF_HEAD)
        return frames_end(data, self.frames_per_turn)

    def _schedule(self) -> None:
        if self.backlog and self.feeding is None and not self.queue_full:
            self.feeding = self.loop.call_soon(self._feed)

    def _feed(self) -> None:
        self.feeding = None
        if self.failed:
            return
        size = self._feedable(self.backlog)
        if not size:
            return  # the handshake is not done: it feeds the rest when it is
        chunk = bytes(self.backlog[:size])
        del self.backlog[:size]
        super().data_received(chunk)
        if self.backlog:
            self._schedule()
            return
        self._resume_reading()

    def _parsed_queue_full(self) -> None:
        self.queue_full = True
        self.transport.pause_reading()

    def _parsed_queue_drained(self) -> None:
        self.queue_full = False
        if self.backlog:
            self._schedule()
        else:
            self._resume_reading()

    def _resume_reading(self) -> None:
        if not self.queue_full and not self.backlog and not self.transport.is_closing():
            self.transport.resume_reading()


def frames_waiting(conn: ServerConnection) -> bool:
    """Whether a frame already parsed waits, so that `recv` would return at once."""
    return bool(conn.recv_messages.frames.queue)


def unsent_bytes(conn: ServerConnection) -> int:
    """Bytes written to the connection that the kernel has not taken yet."""
    return conn.transport.get_write_buffer_size()


def writes_held_back(conn: ServerConnection) -> bool:
    """Whether the transport asked for writes to stop (`send` would wait)."""
    return conn.paused


def pause_reading(conn: ServerConnection) -> None:
    conn.transport.pause_reading()


def resume_reading(conn: ServerConnection) -> None:
    conn.transport.resume_reading()


def abort(conn: ServerConnection) -> None:
    """Drop the TCP connection at once, without a closing handshake."""
    conn.transport.abort()


def connection_class(frames_per_turn: int, limits: AddressLimits) -> type[FairConnection]:
    """The connection type of one server, with its settings."""

    class Connection(FairConnection):
        pass

    Connection.frames_per_turn, Connection.limits = frames_per_turn, limits
    return Connection


__all__ = [
    "FairConnection",
    "abort",
    "connection_class",
    "frames_end",
    "frames_waiting",
    "pause_reading",
    "resume_reading",
    "unsent_bytes",
    "writes_held_back",
]
