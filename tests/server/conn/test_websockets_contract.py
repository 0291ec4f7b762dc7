"""What server/conn/fairconn.py takes of websockets beyond its documented API.

Each check names what it relies on; a websockets release that changes one fails here
with that name, before a flood or a shutdown finds out in production. pyproject.toml
allows only the releases this has passed on.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State
from websockets.version import version

from server.conn.fairconn import (
    FairConnection,
    abort,
    frames_waiting,
    pause_reading,
    resume_reading,
    unsent_bytes,
    writes_held_back,
)
from tests.server._client import TIMEOUT_S


def relied(condition: bool, what: str) -> None:
    assert condition, f"websockets {version} changed {what}, which server/conn/fairconn.py uses"


Pair = tuple[FairConnection, ClientConnection]


@pytest.fixture
async def pair() -> AsyncIterator[Pair]:
    """A server-side `FairConnection` (queue marks 4 and 1) and its client, not read."""
    accepted: asyncio.Future[FairConnection] = asyncio.get_running_loop().create_future()

    async def handler(conn: ServerConnection) -> None:
        assert isinstance(conn, FairConnection)
        accepted.set_result(conn)
        await conn.wait_closed()

    options: Any = {"create_connection": FairConnection, "max_queue": (4, 1)}
    async with serve(handler, "127.0.0.1", 0, **options) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as client:
            async with asyncio.timeout(TIMEOUT_S):
                conn = await accepted
            yield conn, client


def test_the_connection_callbacks_fairconn_overrides_are_websockets_own() -> None:
    for name in ("connection_made", "connection_lost", "data_received", "eof_received"):
        mine, theirs = getattr(FairConnection, name), getattr(ServerConnection, name)
        relied(theirs is not getattr(asyncio.Protocol, name), f"ServerConnection.{name}")
        relied(mine is not theirs, f"ServerConnection.{name}, overridden")
    handshake = inspect.signature(ServerConnection.handshake)
    relied(inspect.iscoroutinefunction(ServerConnection.handshake), "ServerConnection.handshake")
    relied("process_request" in handshake.parameters, "ServerConnection.handshake's arguments")
    relied(
        not inspect.signature(ServerConnection.send_data).parameters.keys() - {"self"}, "send_data"
    )


async def test_the_frame_queue_calls_fairconn_over_its_high_mark_and_under_its_low(
    pair: Pair,
) -> None:
    conn, client = pair
    relied(conn.recv_messages.pause == conn._parsed_queue_full, "recv_messages.pause")
    relied(conn.recv_messages.resume == conn._parsed_queue_drained, "recv_messages.resume")
    relied(not frames_waiting(conn), "recv_messages.frames.queue")
    for n in range(6):
        await client.send(f"frame {n}")
    async with asyncio.timeout(TIMEOUT_S):
        while not conn.queue_full:
            await asyncio.sleep(0)  # the server parses the frames as they come
    relied(frames_waiting(conn), "recv_messages.frames.queue, with frames parsed")
    for _ in range(6):
        await conn.recv()
    relied(not conn.queue_full, "recv_messages.resume, called under the low mark")
    relied(not frames_waiting(conn), "recv_messages.frames.queue, read empty")


async def test_the_transport_the_parser_and_the_flags_fairconn_reaches(pair: Pair) -> None:
    conn, client = pair
    relied(conn.state is conn.protocol.state is State.OPEN, "protocol.state")
    relied(callable(conn.protocol.fail), "protocol.fail")
    parser: Any = conn.protocol.parser
    relied(inspect.isgenerator(parser), "protocol.parser, a generator")
    relied(isinstance(conn.loop, asyncio.AbstractEventLoop), "loop")
    relied(isinstance(unsent_bytes(conn), int) and not writes_held_back(conn), "transport, paused")
    conn.pause_writing()
    relied(writes_held_back(conn), "paused, set by pause_writing")
    conn.resume_writing()
    relied(not writes_held_back(conn), "paused, cleared by resume_writing")
    pause_reading(conn)
    resume_reading(conn)
    abort(conn)
    with pytest.raises(ConnectionClosed):
        async with asyncio.timeout(TIMEOUT_S):
            await client.recv()
    await conn.wait_closed()
    parser = conn.protocol.parser  # the one running when the connection was lost
    relied(inspect.getgeneratorstate(parser) == inspect.GEN_CLOSED, "protocol.parser, closed")
