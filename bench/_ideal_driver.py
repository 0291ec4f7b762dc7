"""Bots for `bench.ideal_server`: join a room, then send bare move frames.

Like the full driver's bots, they do not unpack the room's events (the ideal
server's event frames start with the same bytes), only their own replies."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

STATE = bytes(range(120))
_EVENT_HEAD = b"\x83" + msgpack.packb("t") + msgpack.packb("event")
BATCH = 25
"""Rooms joined at once."""


class IdealBot:
    def __init__(self, conn: ClientConnection, seat: int) -> None:
        self.conn, self.seat, self.n = conn, seat, 0
        self.busy = 0
        self.waiting: asyncio.Future[Any] | None = None
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for frame in self.conn:
            if isinstance(frame, bytes) and frame.startswith(_EVENT_HEAD):
                continue
            msg = msgpack.unpackb(frame)
            if msg["t"] in ("ack", "joined") and self.waiting is not None:
                self.waiting.set_result(msg)

    async def request(self, msg: dict[str, Any]) -> Any:
        if self.waiting is not None and not self.waiting.done():
            raise RuntimeError("a request is already waiting for its reply")
        self.waiting = asyncio.get_running_loop().create_future()
        await self.conn.send(msgpack.packb(msg))
        return await self.waiting

    async def move(self) -> bool:
        self.n += 1
        await self.request({"t": "m", "seat": self.seat, "n": self.n, "state": STATE})
        return True


async def setup(urls: Sequence[str], rooms: range, players: int) -> Sequence[IdealBot]:
    """Join `players` bots to each room of `rooms`, each room's players spread over `urls`."""

    async def one(room: int, seat: int) -> IdealBot:
        conn = await connect(urls[seat % len(urls)], compression=None, max_queue=None)
        bot = IdealBot(conn, seat)
        await bot.request({"t": "join", "room": f"R{room}"})
        return bot

    bots: list[IdealBot] = []
    for first in range(0, len(rooms), BATCH):
        batch = rooms[first : first + BATCH]
        bots += await asyncio.gather(
            *(one(room, seat) for room in batch for seat in range(players))
        )
    return bots
