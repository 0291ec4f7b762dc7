"""Bots for the real server: rooms of players racing on public deals.

The bots speak the real protocol but skip the schemas on their side (plain
msgpack maps), so the load generator stays light: a move's acknowledgement is
recognised by its first bytes (type, id, move id and the version it expects,
in the schema's order) without unpacking the board after them, and once the
race is on other players' events are not unpacked at all. Anything else, such
as an error, is unpacked in full. Each room plays a public
deal; its move line, a random walk of legal moves, is worked out with the
engine before the clock starts, and every player of the room plays it.
Rooms alternate between the two-deck games Little Forty and Double Canfield 40.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
from collections.abc import Sequence
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

import engine
from protocol import PROTOCOL_VERSION

VARIANTS = ("little-forty", "double-canfield-40")
LINE_LENGTH = 1000
"""Moves each bot has to play. A server bench spends about 350 a bot on a fast day
(10,000 moves/s over 1,000 bots for its warm-up, saturated and paced runs); a bot
out of moves stops, and its paced runs would measure nothing."""
_EVENT_HEAD = b"\x83" + msgpack.packb("type") + msgpack.packb("event")
_MOVE_OK_HEAD = b"\x88" + msgpack.packb("type") + msgpack.packb("move_ok") + msgpack.packb("id")
DEALS = 8
"""Distinct deals the rooms cycle through (each with a line of `LINE_LENGTH` moves)."""
BATCH = 25
"""Rooms opened at once."""
BUSY_RETRY_S = 0.2


@functools.cache
def room_deals() -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    """(variant, deal, line) for `DEALS` deals whose random walk reaches `LINE_LENGTH`."""
    found: list[tuple[str, int, tuple[str, ...]]] = []
    deal = 0
    while len(found) < DEALS:
        deal += 1
        variant = VARIANTS[deal % len(VARIANTS)]
        line = move_line(variant, deal)
        if len(line) == LINE_LENGTH:
            found.append((variant, deal, tuple(line)))
    return tuple(found)


def move_line(variant: str, deal: int) -> list[str]:
    """A random walk of legal moves on the deal, as notation."""
    return random_walk(engine.new_game(variant, b"deal:%d" % deal), random.Random(deal))


def random_walk(
    state: engine.GameState, rng: random.Random, length: int = LINE_LENGTH
) -> list[str]:
    """Up to `length` legal moves from `state`, each picked by `rng`, as notation."""
    line: list[str] = []
    while len(line) < length and engine.outcome(state) is engine.Outcome.PLAYING:
        moves = engine.legal_moves(state)
        if not moves:
            break
        move = rng.choice(moves)
        state = engine.apply(state, move)
        line.append(move.format())
    return line


class FullBot:
    def __init__(self, conn: ClientConnection, line: Sequence[str]) -> None:
        self.conn, self.line = conn, line
        self.ids = itertools.count(1)
        self.version = 0
        self.busy = 0
        """Requests the server answered `server/busy` (each was sent again)."""
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.expected: tuple[bytes, int, int] | None = None
        """The awaited move's acknowledgement: its first bytes, request id and version."""
        self.started = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def request(self, **message: Any) -> dict[str, Any]:
        """Send a request and return its reply; `server/busy` is retried after a pause."""
        while (reply := await self._send(message))["type"] == "error":
            if reply["code"] != "server/busy":
                raise RuntimeError(f"{message['type']}: {reply['code']} {reply['message']}")
            self.busy += 1
            await asyncio.sleep(BUSY_RETRY_S)
        return reply

    async def _send(self, message: dict[str, Any]) -> dict[str, Any]:
        request_id = next(self.ids)
        future = asyncio.get_running_loop().create_future()
        self.waiting[request_id] = future
        if message["type"] == "move":
            version = message["expected_version"] + 1
            self.expected = (ack_head(request_id, message["move_id"], version), request_id, version)
        await self.conn.send(msgpack.packb({"id": request_id, **message}))
        reply: dict[str, Any] = await future
        return reply

    async def move(self) -> bool:
        if self.version >= len(self.line):
            return False
        reply = await self.request(
            type="move",
            move=self.line[self.version],
            move_id=f"m{self.version}",
            expected_version=self.version,
        )
        self.version = reply["version"]
        return True

    async def _read(self) -> None:
        started = self.started
        async for frame in self.conn:
            expected = self.expected
            if isinstance(frame, str):
                raise RuntimeError("the server sent a text frame")
            if expected is not None and frame.startswith(expected[0]):
                self.expected = None
                _, request_id, version = expected
                self.waiting.pop(request_id).set_result({"type": "move_ok", "version": version})
            elif not (started.is_set() and frame.startswith(_EVENT_HEAD)):
                take_reply(msgpack.unpackb(frame), self.waiting, started)


def ack_head(request_id: int, move_id: str, version: int) -> bytes:
    """The first bytes of the acknowledgement of a move that takes the game to `version`."""
    parts: list[bytes] = [msgpack.packb(part) for part in (request_id, "move_id", move_id)]
    parts += [msgpack.packb("version"), msgpack.packb(version)]
    head: bytes = _MOVE_OK_HEAD + b"".join(parts)
    return head


async def read_replies(
    conn: ClientConnection,
    waiting: dict[int, asyncio.Future[dict[str, Any]]],
    started: asyncio.Event,
) -> None:
    """Hand each reply to the request waiting for its id; mark the race's start."""
    async for frame in conn:
        take_reply(msgpack.unpackb(frame), waiting, started)


def take_reply(
    message: dict[str, Any],
    waiting: dict[int, asyncio.Future[dict[str, Any]]],
    started: asyncio.Event,
) -> None:
    if message["type"] == "event":
        if message["event"]["type"] == "race_started":
            started.set()
        return
    future = waiting.pop(message.get("id", -1), None)
    if future is not None:
        future.set_result(message)


async def _open(url: str, line: Sequence[str]) -> FullBot:
    conn = await connect(url, compression=None, max_queue=None, open_timeout=60)
    bot = FullBot(conn, line)
    await bot.request(type="hello", version=PROTOCOL_VERSION, client="bench")
    return bot


async def _room(urls: Sequence[str], index: int, players: int) -> list[FullBot]:
    variant, deal, line = room_deals()[index % DEALS]
    host = await _open(urls[0], line)
    settings = {"max_players": players, "time_limit_s": 3600, "countdown_s": 1, "deal_number": deal}
    joined = await host.request(type="create_room", variant=variant, name="host", settings=settings)
    bots = [host]
    for seat in range(1, players):
        bot = await _open(urls[seat % len(urls)], line)
        await bot.request(type="join_room", code=joined["code"], name=f"bot{seat}")
        bots.append(bot)
    return bots


async def setup(urls: Sequence[str], rooms: range, players: int) -> Sequence[FullBot]:
    """Open every room, seat its bots, ready them and wait for every race to start."""
    groups: list[list[FullBot]] = []
    for first in range(0, len(rooms), BATCH):
        batch = rooms[first : first + BATCH]
        groups += await asyncio.gather(*(_room(urls, index, players) for index in batch))
    bots = [bot for group in groups for bot in group]
    await asyncio.gather(*(bot.request(type="ready", ready=True) for bot in bots))
    await asyncio.gather(*(bot.started.wait() for bot in bots))
    return bots
