"""A scripted protocol client for server tests: requests by id, events in order."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol import (
    PROTOCOL_VERSION,
    EventFrame,
    Hello,
    ServerMessage,
    decode_server,
    encode,
)

M = TypeVar("M", bound=BaseModel)
TIMEOUT_S = 10.0


class Client:
    """One connection. `call` sends a request and returns its reply."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.ids = itertools.count(1)
        self.replies: dict[int, asyncio.Future[ServerMessage]] = {}
        self.pushed: list[ServerMessage] = []
        self.frames: list[bytes] = []
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str) -> Client:
        client = cls(await connect(url, compression=None, max_size=None))
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

    async def send_raw(self, data: bytes | str) -> None:
        await self.conn.send(data)

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
                self.frames.append(frame)
                message = decode_server(frame)
                request_id = getattr(message, "id", None)
                future = self.replies.pop(request_id, None) if request_id is not None else None
                if future is not None and message.type != "event":
                    future.set_result(message)
                else:
                    self.pushed.append(message)
                self.arrived.set()
