"""The ideal path: the least a move can cost on this stack, with no engine.

A bare websockets server that, for each move, decodes msgpack, makes one Redis
round trip (one EVALSHA that stores the state, bumps the room seq and appends
to the room stream), acknowledges the sender with the stored state (as the real
acknowledgement carries the player's board) and sends the room's event to every
player of the room, the sender too (the protocol sends each event to all members).
Several processes can share a room, as the full server's can: each process that
has a player in a room is in the room's watcher set, and the script publishes the
event to every other watcher's channel, which that process reads with the full
server's pub/sub listener (`server.store._pubsub.Listener`) and sends to its own
players of the room. With one process the set holds only itself: nothing is published.
It runs with the full server's garbage-collector settings (`server.memory.freeze_startup`) and
talks to Redis as the full server's store does (`ScriptRunner` on hiredis-packed
connections, one round trip per move, no grouping), so the client library's cost is
the same on both sides. The full server is measured against it by `bench.server_bench`.

Run: python -m bench.ideal_server --port 0 --redis URL [--prefix P] (prints "port N").
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import signal
from collections import defaultdict
from typing import Any

import msgpack
import redis.asyncio as aioredis
from websockets.asyncio.server import ServerConnection, broadcast, serve

from server import memory
from server.store._pubsub import Listener
from server.store._runner import ScriptRunner
from server.store._script import Script
from server.store._wire import packing_in_c

SCRIPT = Script(
    keys=("board", "seq", "events", "watchers"),
    args=("state", "event", "me", "room"),
    body="""
redis.call('SET', board, state)
local number = redis.call('INCR', seq)
redis.call('XADD', events, 'MAXLEN', '~', 1000, number .. '-0', 'e', event)
for _, peer in ipairs(redis.call('SMEMBERS', watchers)) do
  if peer ~= me then redis.call('PUBLISH', peer, room .. '\\n' .. number .. '\\n' .. event) end
end
return number
""",
)


class IdealServer:
    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.client, self.prefix = client, prefix
        self.me = f"{prefix}p:{secrets.token_hex(8)}"
        """This process's channel, and its name in the watcher sets."""
        self.runner = ScriptRunner(client, group=False)
        self.rooms: dict[str, set[ServerConnection]] = defaultdict(set)
        self.listener: Listener | None = None

    async def load(self) -> None:
        await self.runner.load([SCRIPT])
        pool = self.client.connection_pool
        self.listener = await Listener.open(pool, self.published, lambda _: None)
        self.listener.subscribe(self.me.encode())

    async def close(self) -> None:
        await self.runner.drain()
        if self.listener is not None:
            self.listener.close()
        await self.client.connection_pool.disconnect()

    def published(self, channel: bytes, data: bytes) -> None:
        """Another process's event of a room this process has players in."""
        room, seq, event = data.split(b"\n", 2)
        frame = msgpack.packb({"t": "event", "seq": int(seq), "event": event})
        broadcast(self.rooms[room.decode()], frame)

    async def handle(self, conn: ServerConnection) -> None:
        room = ""
        try:
            async for frame in conn:
                msg = msgpack.unpackb(frame)
                if msg["t"] == "join":
                    room = msg["room"]
                    if not self.rooms[room]:
                        await self.client.sadd(self.key(room, "w"), self.me)
                    self.rooms[room].add(conn)
                    await conn.send(msgpack.packb({"t": "joined"}))
                    continue
                await self.move(conn, room, msg)
        finally:
            self.rooms[room].discard(conn)

    def key(self, room: str, name: str) -> str:
        return f"{self.prefix}ideal:{{{room}}}:{name}"

    async def move(self, conn: ServerConnection, room: str, msg: dict[str, Any]) -> None:
        keys = {
            "board": self.key(room, f"s:{msg['seat']}"),
            "seq": self.key(room, "seq"),
            "events": self.key(room, "ev"),
            "watchers": self.key(room, "w"),
        }
        event = msgpack.packb({"t": "progress", "seat": msg["seat"], "n": msg["n"]})
        args = {"state": msg["state"], "event": event, "me": self.me, "room": room}
        seq = await self.runner.run(SCRIPT.bind(keys, args))
        await conn.send(
            msgpack.packb({"t": "ack", "n": msg["n"], "seq": seq, "board": msg["state"]})
        )
        broadcast(self.rooms[room], msgpack.packb({"t": "event", "seq": seq, "event": event}))


def open_client(redis_url: str) -> aioredis.Redis:
    """A client whose connections pack commands as the full server's store does."""
    pool = aioredis.BlockingConnectionPool.from_url(redis_url, max_connections=64)
    pool.connection_class = packing_in_c(pool.connection_class)
    return aioredis.Redis(connection_pool=pool)


async def main_async(port: int, redis_url: str, prefix: str) -> None:
    client = open_client(redis_url)
    server = IdealServer(client, prefix)
    await server.load()
    memory.freeze_startup()
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    async with serve(server.handle, "127.0.0.1", port, compression=None) as ws:
        bound = next(iter(ws.sockets)).getsockname()[1]
        print(f"port {bound}", flush=True)
        await stop
    await server.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--redis", required=True)
    parser.add_argument("--prefix", default="", help="prepended to every Redis key and channel")
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.run(main_async(args.port, args.redis, args.prefix))
    except ImportError:
        asyncio.run(main_async(args.port, args.redis, args.prefix))


if __name__ == "__main__":
    main()
