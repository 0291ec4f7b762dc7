"""The measured room-goers of `bench.abuse_bench`: paced players timing their acks.

Each player is alone in a room of its own on a public deal and plays a legal
move line worked out with the engine beforehand, one move at a time, a move
every `interval_s` (well under the per-connection request rate), recording
the time from sending each move to its ``move_ok``.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from bench._full_driver import move_line, read_replies
from protocol import PROTOCOL_VERSION

VARIANT = "little-forty"


class Player:
    def __init__(self, conn: ClientConnection, line: list[str]) -> None:
        self.conn, self.line = conn, line
        self.ids = itertools.count(1)
        self.version = 0
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.started = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def request(self, **message: Any) -> dict[str, Any]:
        request_id = next(self.ids)
        future = asyncio.get_running_loop().create_future()
        self.waiting[request_id] = future
        await self.conn.send(msgpack.packb({"id": request_id, **message}))
        reply: dict[str, Any] = await future
        if reply["type"] == "error":
            raise RuntimeError(f"{message['type']}: {reply['code']} {reply['message']}")
        return reply

    async def play(self, until: float, interval_s: float, acks_ms: list[float]) -> None:
        """Move every `interval_s` until `until` (monotonic) or the line ends."""
        while time.monotonic() < until and self.version < len(self.line):
            sent = time.perf_counter()
            reply = await self.request(
                type="move",
                move=self.line[self.version],
                move_id=f"m{self.version}",
                expected_version=self.version,
            )
            acks_ms.append((time.perf_counter() - sent) * 1000)
            self.version = reply["version"]
            await asyncio.sleep(max(0.0, interval_s - (time.perf_counter() - sent)))

    async def close(self) -> None:
        await self.conn.close()
        self.reader.cancel()

    async def _read(self) -> None:
        await read_replies(self.conn, self.waiting, self.started)


def long_lines(count: int, length: int) -> list[tuple[int, list[str]]]:
    """`count` public deals whose legal move line has at least `length` moves."""
    found: list[tuple[int, list[str]]] = []
    for deal in itertools.count(1):
        line = move_line(VARIANT, deal)
        if len(line) >= length:
            found.append((deal, line))
        if len(found) == count:
            return found
    raise AssertionError("unreachable")


async def seat(url: str, deal: int, line: list[str], address: str) -> Player:
    """A player alone in a new room, its race started."""
    conn = await connect(
        url, additional_headers={"X-Forwarded-For": address}, compression=None, max_queue=None
    )
    player = Player(conn, line)
    await player.request(type="hello", version=PROTOCOL_VERSION, client="bench-victim")
    settings = {"max_players": 1, "countdown_s": 1, "time_limit_s": 3600, "deal_number": deal}
    await player.request(type="create_room", variant=VARIANT, name="victim", settings=settings)
    await player.request(type="ready", ready=True)
    await player.started.wait()
    return player
