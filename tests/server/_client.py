"""A scripted protocol client for server tests: requests by id, events in order."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import msgpack
from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol import (
    PROTOCOL_VERSION,
    CreateRoom,
    EventFrame,
    Hello,
    Joined,
    JoinRoom,
    Ping,
    Ready,
    ServerMessage,
    Settings,
    decode_server,
    encode,
)
from server.clock import Clock, ManualClock, SystemClock

M = TypeVar("M", bound=BaseModel)
TIMEOUT_S = 10.0


class Client:
    """One connection. `call` sends a request and returns its reply.

    `clock` is the server's clock: it stamps arrivals, and a test moves it
    through `advance_to` when the server runs on a manual clock.
    """

    def __init__(self, conn: ClientConnection, clock: Clock) -> None:
        self.conn, self.clock = conn, clock
        self.ids = itertools.count(1)
        self.replies: dict[int, asyncio.Future[ServerMessage]] = {}
        self.pushed: list[ServerMessage] = []
        self.frames: list[bytes] = []
        self.arrived_ms: list[int] = []
        """When each of `frames` arrived, in ms of the server's clock."""
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def dial(cls, url: str, clock: Clock | None = None) -> Client:
        """A connection that has sent nothing yet (no ``hello``)."""
        return cls(await connect(url, compression=None, max_size=None), clock or SystemClock())

    @classmethod
    async def open(cls, url: str, clock: Clock | None = None) -> Client:
        client = await cls.dial(url, clock)
        welcome = await client.call(Hello, version=PROTOCOL_VERSION, client="tests")
        assert welcome.type == "welcome", welcome
        return client

    async def close(self) -> None:
        await self.conn.close()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader

    async def call(self, kind: type[M], **fields: Any) -> Any:
        """Send `kind(id=<next>, **fields)` and wait for the reply with that id."""
        request_id = next(self.ids)
        future: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        self.replies[request_id] = future
        await self.conn.send(encode(kind(id=request_id, **fields)))
        return await asyncio.wait_for(future, TIMEOUT_S)

    def advance_to(self, when_ms: int) -> None:
        """Move the server's manual clock to `when_ms`, running the timers due by then."""
        assert isinstance(self.clock, ManualClock), "the server must run on a manual clock"
        self.clock.advance_to(when_ms)

    async def send_raw(self, data: bytes | str) -> None:
        await self.conn.send(data)

    async def send_map(self, fields: dict[str, Any]) -> None:
        """Send any map as msgpack, unchecked by the schemas (for malformed requests)."""
        await self.conn.send(msgpack.packb(fields))

    async def answers_to(self, data: bytes) -> list[ServerMessage]:
        """Send a raw frame, then a ping; what arrived before the pong.

        The server reads a connection's frames in order, so every reply to the raw
        frame comes before the pong. Raw frames should not use small request ids,
        which the ping may take.
        """
        start = len(self.frames)
        await self.conn.send(data)
        pong = await self.call(Ping)
        received = [decode_server(frame) for frame in self.frames[start:]]
        return received[: received.index(pong)]

    async def closed(self, timeout: float = TIMEOUT_S) -> int | None:
        """Wait until the connection is closed; the close code the server sent."""
        async with asyncio.timeout(timeout):
            await self.conn.wait_closed()
        return self.conn.close_code

    def events(self, kind: str | None = None) -> list[Any]:
        """Event bodies received so far, oldest first (optionally of one type)."""
        bodies = [m.event for m in self.pushed if isinstance(m, EventFrame)]
        return [b for b in bodies if kind is None or b.type == kind]

    def seqs(self) -> list[int]:
        return [m.seq for m in self.pushed if isinstance(m, EventFrame)]

    async def wait_event(
        self, kind: str, where: Callable[[Any], bool] = lambda _: True, timeout: float = TIMEOUT_S
    ) -> Any:
        """The first event of `kind` matching `where`, waiting for it to arrive."""
        async with asyncio.timeout(timeout):
            while True:
                for body in self.events(kind):
                    if where(body):
                        return body
                self.arrived.clear()
                await self.arrived.wait()

    async def wait_pushed(self, kind: str, timeout: float = TIMEOUT_S) -> Any:
        """The first pushed (not replied, not event) message of `kind`."""
        async with asyncio.timeout(timeout):
            while True:
                for message in self.pushed:
                    if message.type == kind:
                        return message
                self.arrived.clear()
                await self.arrived.wait()

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.conn:
                assert isinstance(frame, bytes)
                self.arrived_ms.append(self.clock.now_ms())
                self.frames.append(frame)
                message = decode_server(frame)
                request_id = getattr(message, "id", None)
                future = self.replies.pop(request_id, None) if request_id is not None else None
                if future is not None and message.type != "event":
                    future.set_result(message)
                else:
                    self.pushed.append(message)
                self.arrived.set()


async def start_race(
    clients: Sequence[Client], variant: str = "little-forty", settings: Settings | None = None
) -> list[Joined]:
    """Seat the clients in a new room (the first one hosts), ready everyone, start the race.

    The countdown runs on the server's clock, which the host's client moves to the start.
    """
    host, *others = clients
    created = await host.call(
        CreateRoom,
        variant=variant,
        name="P0",
        settings=settings or Settings(countdown_s=1, deal_number=1),
    )
    assert created.type == "joined", created
    seated = [created]
    for number, client in enumerate(others, 1):
        joined = await client.call(JoinRoom, code=created.code, name=f"P{number}")
        assert joined.type == "joined", joined
        seated.append(joined)
    for client in clients:
        assert (await client.call(Ready, ready=True)).type == "ok"
    await count_down(host)
    for client in clients:
        await client.wait_event("race_started")
    return seated


async def count_down(client: Client) -> Any:
    """The room's first countdown, the server's clock moved to its end, and the start.

    A server in another process runs on real time: there the countdown ends by itself.
    """
    countdown = await client.wait_event("countdown")
    if isinstance(client.clock, ManualClock):
        client.advance_to(countdown.start_at_ms)
    return await client.wait_event("race_started")
