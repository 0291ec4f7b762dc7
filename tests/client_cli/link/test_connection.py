"""The hello exchange against small scripted servers: welcome, refusal, silence."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from websockets.asyncio.server import ServerConnection, serve

from client_cli.link.connection import (
    MAX_BACKOFF_S,
    RECONNECT_FOR_S,
    ConnectFailed,
    Connection,
    reconnect,
)
from protocol import Error, ErrorCode, Welcome, decode_client, encode

Handler = Callable[[ServerConnection], Awaitable[None]]


@pytest.fixture
def scripted() -> Callable[[Handler], AsyncIterator[str]]:
    async def start(handler: Handler) -> AsyncIterator[str]:
        async with serve(handler, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            yield f"ws://127.0.0.1:{port}"

    return start


async def _welcome(conn: ServerConnection) -> None:
    hello = decode_client(await conn.recv(decode=False))
    await conn.send(encode(Welcome(id=hello.id, version=1, server_ms=5_000_000)))
    await conn.wait_closed()


async def _refuse(conn: ServerConnection) -> None:
    hello = decode_client(await conn.recv(decode=False))
    refusal = Error(id=hello.id, code=ErrorCode.PROTO_VERSION, message="speaks 2")
    await conn.send(encode(refusal))
    await conn.close(4000)


async def _hang_up(conn: ServerConnection) -> None:
    await conn.recv()
    await conn.close()


async def test_welcome_sets_the_server_clock(
    scripted: Callable[[Handler], AsyncIterator[str]],
) -> None:
    async for url in scripted(_welcome):
        conn = await Connection.open(url)
        assert abs(conn.server_now_ms() - 5_000_000) < 1000
        await conn.close()


@pytest.mark.parametrize(
    ("handler", "complaint"),
    [(_refuse, "the server refused: proto/version: speaks 2"), (_hang_up, "no welcome from")],
)
async def test_a_refused_or_unanswered_hello_fails_cleanly(
    scripted: Callable[[Handler], AsyncIterator[str]], handler: Handler, complaint: str
) -> None:
    async for url in scripted(handler):
        with pytest.raises(ConnectFailed, match=complaint):
            await Connection.open(url)


class _Outage:
    """A server that stays down: a fake clock advanced by the reconnect's own sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.attempts: list[float] = []
        self.heard: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.now += seconds

    async def open(self, url: str) -> Connection:
        self.attempts.append(self.now)
        raise ConnectFailed(f"cannot connect to {url}")


async def test_reconnect_keeps_trying_with_backoff_for_minutes_then_gives_up() -> None:
    with pytest.raises(ConnectFailed, match="cannot connect"):
        await Connection.open("ws://127.0.0.1:1")
    down = _Outage()
    gone = await reconnect(
        "ws://127.0.0.1:1",
        on_retry=down.heard.append,
        open_connection=down.open,
        sleep=down.sleep,
        clock=lambda: down.now,
    )
    assert gone is None
    assert down.attempts[0] == 0.0 and down.attempts[-1] == RECONNECT_FOR_S >= 120
    gaps = [later - earlier for earlier, later in itertools.pairwise(down.attempts)]
    assert gaps[:5] == [0.25, 0.5, 1.0, 2.0, 4.0]
    assert max(gaps) == MAX_BACKOFF_S
    assert down.heard == down.attempts[:-1]
