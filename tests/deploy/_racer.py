"""A scripted racer that survives what the deployment tests do to the servers.

It plays stock moves (draw, or recycle when the stock is empty) of a pinned
double-canfield-40 deal, which never run out, and keeps what a real client keeps:
its token, the last seq it saw, its game version and the ids of its acknowledged
moves. A request whose connection is lost gets no reply instead of a hang; the
move is then resent under the same id after `resume`, so it is applied once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed

import engine
from protocol import (
    Error,
    MakeMove,
    MoveOk,
    Resign,
    Resume,
    ServerMessage,
    Settings,
    encode,
)
from tests.server._client import TIMEOUT_S, Client, M, start_race

VARIANT = "double-canfield-40"
DEAL = 3
SETTINGS = Settings(countdown_s=1, deal_number=DEAL)
OUTAGE_CODES = {"server/busy", "server/internal"}
"""What a request gets while the store is unreachable."""


@dataclass
class Racer:
    client: Client
    token: str = ""
    seat: int = 0
    version: int = 0
    acked: list[str] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    """Seqs of the events seen on earlier connections."""
    state: engine.GameState = field(
        default_factory=lambda: engine.new_game(VARIANT, b"deal:%d" % DEAL)
    )

    @property
    def last_seq(self) -> int:
        return max(self.all_seqs(), default=0)

    def all_seqs(self) -> list[int]:
        """Seqs of every event seen, on every connection, in arrival order."""
        return self.seqs + self.client.seqs()

    def next_move(self) -> str:
        moves = [m.format() for m in engine.legal_moves(self.state)]
        return "draw" if "draw" in moves else "recycle"

    async def request(self, kind: type[M], **fields: Any) -> ServerMessage | None:
        """Send a request; its reply, or None when the connection closes first."""
        client = self.client
        request_id = next(client.ids)
        reply: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        client.replies[request_id] = reply
        try:
            await client.conn.send(encode(kind(id=request_id, **fields)))
        except ConnectionClosed:
            return None
        closed = asyncio.ensure_future(client.conn.wait_closed())
        try:
            waits: set[asyncio.Future[Any]] = {reply, closed}
            await asyncio.wait(waits, timeout=TIMEOUT_S, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closed.cancel()
        if reply.done():
            return reply.result()
        assert client.conn.close_code is not None, f"no reply to {kind.__name__} in {TIMEOUT_S}s"
        return None

    async def send_move(self, move_id: str) -> ServerMessage | None:
        """Send the next stock move as `move_id`; an ack is recorded."""
        text = self.next_move()
        reply = await self.request(
            MakeMove, move=text, move_id=move_id, expected_version=self.version
        )
        if isinstance(reply, MoveOk):
            assert reply.version == self.version + 1, reply
            self.state = engine.apply(self.state, engine.Move.parse(text))
            self.version = reply.version
            self.acked.append(move_id)
        return reply

    async def move(self, move_id: str) -> None:
        reply = await self.send_move(move_id)
        assert isinstance(reply, MoveOk), reply

    async def move_when_served(self, move_id: str, timeout_s: float = 30.0) -> None:
        """Send the move until it is acknowledged; meanwhile only outage refusals are allowed."""
        async with asyncio.timeout(timeout_s):
            reply = await self.send_move(move_id)
            while not isinstance(reply, MoveOk):
                assert self.refused_for_outage(reply), reply
                await asyncio.sleep(0.1)
                reply = await self.send_move(move_id)

    async def wait_event_of(self, other: Racer) -> None:
        """Wait for the ``progress`` event of `other`'s last acknowledged move."""
        await self.client.wait_event(
            "progress", lambda event: (event.seat, event.moves) == (other.seat, other.version)
        )

    async def move_through_a_crash(
        self, move_id: str, crash: Callable[[], None], resume_url: str
    ) -> None:
        """Send a move, `crash` its server before the reply is read, resume, get it acknowledged.

        The server may or may not have applied the move before it died; it is
        resent under the same id after `resume` unless the reply came first.
        """
        sending = asyncio.ensure_future(self.send_move(move_id))
        await asyncio.sleep(0)
        await asyncio.to_thread(crash)
        reply = await sending
        assert reply is None or isinstance(reply, MoveOk), reply
        await self.client.closed()
        await self.resume(resume_url)
        if reply is None:
            await self.move(move_id)

    async def resume(self, url: str) -> None:
        """Reconnect to `url` and resume with the token and the last seq seen."""
        self.seqs = self.all_seqs()
        await self.client.close()
        self.client = await Client.open(url)
        resumed = await self.client.call(Resume, token=self.token, last_seq=self.last_seq)
        assert resumed.type == "resumed", resumed
        assert resumed.seat == self.seat and resumed.version in (self.version, self.version + 1)

    async def resign(self) -> None:
        assert (await self.client.call(Resign)).type == "ok"

    def refused_for_outage(self, reply: ServerMessage | None) -> bool:
        return isinstance(reply, Error) and reply.code.value in OUTAGE_CODES


async def seat_racers(clients: Sequence[Client]) -> list[Racer]:
    """Seat the clients in a new room of the pinned deal and start the race."""
    seated = await start_race(clients, VARIANT, SETTINGS)
    return [
        Racer(client, token=joined.token, seat=joined.seat or 0)
        for client, joined in zip(clients, seated, strict=True)
    ]


async def check_results(racers: Sequence[Racer]) -> None:
    """Everyone resigns; the results hold every acknowledged move once, in order.

    Each racer also saw every event of the room once, in seq order, across all
    its connections.
    """
    for racer in racers:
        await racer.resign()
    for racer in racers:
        over = await racer.client.wait_event("race_over")
        for line in over.ranking:
            owner = next(r for r in racers if r.seat == line.seat)
            assert [entry.move_id for entry in line.log] == owner.acked
            assert line.moves == len(owner.acked)
        seen = racer.all_seqs()
        assert seen == list(range(seen[0], seen[-1] + 1)), seen
