"""The ideal path: the least a move can cost on this stack, with no engine.

A bare websockets server that, for each move, decodes msgpack, makes one Redis
round trip (one EVALSHA that stores the state, bumps the room seq and appends
to the room stream), acknowledges the sender with the stored state (as the real
acknowledgement carries the player's board) and sends the room's event to every
player of the room, the sender too (the protocol sends each event to all members).
It runs with the full server's garbage-collector settings (`server.memory.settle`) and
talks to Redis as the full server's store does (`ScriptRunner` on hiredis-packed
connections, one round trip per move, no grouping), so the client library's cost is
the same on both sides. The full server is measured against it by `bench.server_bench`.

Run: python -m bench.ideal_server --port 0 --redis URL (prints "port N").
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from collections import defaultdict
from typing import Any

import msgpack
import redis.asyncio as aioredis
from websockets.asyncio.server import ServerConnection, broadcast, serve

from server import memory
from server.store._runner import ScriptRunner
from server.store._script import Script
from server.store._wire import packing_in_c

SCRIPT = Script(
    keys=("board", "seq", "events"),
    args=("state", "event"),
    body="""
redis.call('SET', board, state)
local number = redis.call('INCR', seq)
redis.call('XADD', events, 'MAXLEN', '~', 1000, number .. '-0', 'e', event)
return number
""",
)


class IdealServer:
    def __init__(self, client: aioredis.Redis) -> None:
        self.client = client
        self.runner = ScriptRunner(client, group=False)
        self.rooms: dict[str, set[ServerConnection]] = defaultdict(set)

    async def load(self) -> None:
        await self.runner.load([SCRIPT])

    async def handle(self, conn: ServerConnection) -> None:
        room = ""
        try:
            async for frame in conn:
                msg = msgpack.unpackb(frame)
                if msg["t"] == "join":
                    room = msg["room"]
                    self.rooms[room].add(conn)
                    await conn.send(msgpack.packb({"t": "joined"}))
                    continue
                await self.move(conn, room, msg)
        finally:
            self.rooms[room].discard(conn)

    async def move(self, conn: ServerConnection, room: str, msg: dict[str, Any]) -> None:
        keys = {
            "board": f"ideal:{{{room}}}:s:{msg['seat']}",
            "seq": f"ideal:{{{room}}}:seq",
            "events": f"ideal:{{{room}}}:ev",
        }
        event = msgpack.packb({"t": "progress", "seat": msg["seat"], "n": msg["n"]})
        seq = await self.runner.run(SCRIPT.bind(keys, {"state": msg["state"], "event": event}))
        await conn.send(
            msgpack.packb({"t": "ack", "n": msg["n"], "seq": seq, "board": msg["state"]})
        )
        broadcast(self.rooms[room], msgpack.packb({"t": "event", "seq": seq, "event": event}))


async def main_async(port: int, redis_url: str) -> None:
    pool = aioredis.BlockingConnectionPool.from_url(redis_url, max_connections=64)
    pool.connection_class = packing_in_c(pool.connection_class)
    client = aioredis.Redis(connection_pool=pool)
    server = IdealServer(client)
    await server.load()
    memory.settle()
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    async with serve(server.handle, "127.0.0.1", port, compression=None) as ws:
        bound = next(iter(ws.sockets)).getsockname()[1]
        print(f"port {bound}", flush=True)
        await stop
    await client.aclose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--redis", required=True)
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.run(main_async(args.port, args.redis))
    except ImportError:
        asyncio.run(main_async(args.port, args.redis))


if __name__ == "__main__":
    main()
