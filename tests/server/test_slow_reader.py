"""A client that stops reading is closed with 4003 once its unsent frames pass the cap.

A spectator stops reading while a player moves: the boards and events pushed to
it pile up in the server's write buffer, which never grows past the cap by more
than one frame; over it, the connection is closed with 4003 and the spectator
resumes with its token. Replies are not pushed: a client that sends requests but
reads no replies finds the server waiting for room in the buffer before it reads
on. The socket buffers on both ends are made small, so the kernel does not soak up
what the server would otherwise hold.
"""

from __future__ import annotations

import asyncio
import socket

from protocol import CloseCode, JoinRoom, MakeMove, Ping, Resume, encode
from server.app import RaceServer
from server.conn.session import Session
from server.store import Store
from tests.server._client import Client, start_race
from tests.server._pipeline import SETTINGS, VARIANT, stock_line
from tests.server.conftest import ServerFactory

LIMIT = 16 * 1024
BOARD_BYTES = 4096
"""More than any one frame pushed to a spectator here (a board, an event)."""
MOVES = 3000
PINGS = 5000
"""Their pongs are several times what the socket buffers and the write buffer hold."""
PONG_BYTES = 64
"""More than one ``pong`` frame."""


def _shrink(conn_socket: socket.socket) -> None:
    conn_socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn_socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)


def _spectator_session(server: RaceServer) -> Session:
    [session] = [s for s in server.sessions if s.place.code is not None and s.place.seat is None]
    return session


async def test_a_spectator_that_stops_reading_is_closed_with_4003_and_resumes(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(
        store, send_buffer_limit_bytes=LIMIT, rate_per_s=100_000.0, rate_burst=100_000.0
    )
    url = f"ws://127.0.0.1:{server.port}"
    ann, eve = await Client.open(url, server.clock), await Client.open(url, server.clock)
    [joined] = await start_race([ann], VARIANT, SETTINGS)
    watching = await eve.call(JoinRoom, code=joined.code, name="Eve", role="spectator")
    assert watching.type == "joined"
    session = _spectator_session(server)
    _shrink(eve.conn.transport.get_extra_info("socket"))
    _shrink(session.conn.transport.get_extra_info("socket"))
    eve.conn.transport.pause_reading()

    most = 0
    for version, text in enumerate(stock_line(MOVES)):
        reply = await ann.call(MakeMove, move=text, move_id=f"m{version}", expected_version=version)
        assert reply.type == "move_ok", reply
        most = max(most, session.conn.transport.get_write_buffer_size())
        if session.closing is not None:
            break
    assert session.closing is not None, f"{MOVES} moves never filled the buffer (most {most})"
    assert LIMIT < most <= LIMIT + BOARD_BYTES
    eve.conn.transport.resume_reading()
    assert await eve.closed() == CloseCode.SLOW_READER

    back = await Client.open(url, server.clock)
    resumed = await back.call(Resume, token=watching.token, last_seq=watching.seq)
    assert resumed.type in ("resumed", "snapshot"), resumed
    assert resumed.code == joined.code and resumed.seat is None
    for client in (ann, eve, back):
        await client.close()


async def test_replies_to_a_client_that_reads_none_wait_for_room_in_the_buffer(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, rate_per_s=100_000.0, rate_burst=100_000.0)
    url = f"ws://127.0.0.1:{server.port}"
    ann = await Client.open(url, server.clock)
    [session] = server.sessions
    bob = await Client.open(url, server.clock)
    _shrink(ann.conn.transport.get_extra_info("socket"))
    _shrink(session.conn.transport.get_extra_info("socket"))
    ann.conn.transport.pause_reading()

    async def send_pings() -> None:
        for n in range(PINGS):
            await ann.conn.send(encode(Ping(id=1000 + n)))

    sending = asyncio.create_task(send_pings())
    _, high = session.conn.transport.get_write_buffer_limits()
    most = 0
    for _ in range(PINGS):  # each round trip gives the server a few turns
        assert (await bob.call(Ping)).type == "pong"
        most = max(most, session.conn.transport.get_write_buffer_size())
        if session.conn.paused:
            break
    assert session.conn.paused, f"the replies never filled the buffer (most {most})"
    for _ in range(100):  # the server waits now: no more replies are written
        assert (await bob.call(Ping)).type == "pong"
        most = max(most, session.conn.transport.get_write_buffer_size())
    assert high < most <= high + PONG_BYTES
    ann.conn.transport.resume_reading()
    await sending
    assert (await ann.call(Ping)).type == "pong"  # replies go in order: every pong is in
    assert [getattr(message, "id", None) for message in ann.pushed] == [
        1000 + n for n in range(PINGS)
    ]
    for client in (ann, bob):
        await client.close()
