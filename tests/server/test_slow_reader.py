"""A client that stops reading is closed with 4003 once its unsent frames pass the cap.

A spectator stops reading while a player moves: the boards and events pushed to
it pile up in the server's write buffer, which never grows past the cap by more
than one frame; over it, the connection is closed with 4003 and the spectator
resumes with its token. The socket buffers on both ends are made small, so the
kernel does not soak up what the server would otherwise hold.
"""

from __future__ import annotations

import socket

from protocol import CloseCode, JoinRoom, MakeMove, Resume
from server.app import RaceServer
from server.session import Session
from server.store import Store
from tests.server._client import Client, start_race
from tests.server._pipeline import SETTINGS, VARIANT, stock_line
from tests.server.conftest import ServerFactory

LIMIT = 16 * 1024
BOARD_BYTES = 4096
"""More than any one frame pushed to a spectator here (a board, an event)."""
MOVES = 3000


def _shrink(conn_socket: socket.socket) -> None:
    conn_socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn_socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)


def _spectator_session(server: RaceServer) -> Session:
    [session] = [s for s in server.sessions if s.code is not None and s.seat is None]
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
