"""The ideal path shares a room between processes, as the full server does, so the
scale-out bench compares like with like."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import serve

from bench.ideal_server import IdealServer, open_client

FAIL_AFTER_S = 10.0
"""A frame that never comes fails the test instead of hanging it."""


@contextlib.asynccontextmanager
async def ideal_process(redis_url: str, prefix: str) -> AsyncIterator[str]:
    """One ideal server (as one process of a rig would run it); yields its URL."""
    server = IdealServer(open_client(redis_url), prefix)
    try:
        await server.load()
        async with serve(server.handle, "127.0.0.1", 0, compression=None) as ws:
            yield f"ws://127.0.0.1:{next(iter(ws.sockets)).getsockname()[1]}"
    finally:
        await server.close()


async def request(conn: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    await conn.send(msgpack.packb(message))
    reply: dict[str, Any] = msgpack.unpackb(await conn.recv())
    return reply


async def test_a_move_reaches_the_rooms_players_on_every_process(
    redis_url: str, key_prefix: str
) -> None:
    async with asyncio.timeout(FAIL_AFTER_S), contextlib.AsyncExitStack() as stack:
        first_url = await stack.enter_async_context(ideal_process(redis_url, key_prefix))
        second_url = await stack.enter_async_context(ideal_process(redis_url, key_prefix))
        urls = (first_url, first_url, second_url, second_url)
        mover, beside, elsewhere, other_room = [
            await stack.enter_async_context(connect(url)) for url in urls
        ]
        for conn, room in ((mover, "A"), (beside, "A"), (elsewhere, "A"), (other_room, "B")):
            assert await request(conn, {"t": "join", "room": room}) == {"t": "joined"}
        move = {"t": "m", "seat": 0, "n": 1, "state": b"board"}
        assert await request(mover, move) == {"t": "ack", "n": 1, "seq": 1, "board": b"board"}
        event = msgpack.packb({"t": "progress", "seat": 0, "n": 1})
        for conn in (mover, beside, elsewhere):
            assert msgpack.unpackb(await conn.recv()) == {"t": "event", "seq": 1, "event": event}
        assert await request(other_room, move) == {"t": "ack", "n": 1, "seq": 1, "board": b"board"}
        assert msgpack.unpackb(await other_room.recv())["seq"] == 1
        second = {**move, "seat": 1, "n": 2}
        assert (await request(beside, second))["seq"] == 2
        # Room B's event never reached room A's players: their next frame is room A's.
        assert msgpack.unpackb(await elsewhere.recv())["seq"] == 2
