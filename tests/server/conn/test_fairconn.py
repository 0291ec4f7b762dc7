"""Fair reading: one connection's flood never holds up another connection's replies."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.exceptions import InvalidStatus
from websockets.frames import Frame
from websockets.protocol import Protocol, Side, State
from websockets.uri import parse_uri

from protocol import PROTOCOL_VERSION, Ping, ServerMessage, decode_server
from server.app import RaceServer
from server.conn.fairconn import FairConnection, frames_end
from server.store import Store
from tests.server._client import TIMEOUT_S, Client
from tests.server.conftest import ServerFactory

GARBAGE = b"\xc1"
"""Not msgpack: each such frame gets a ``proto/malformed`` reply."""
FLOOD = 10_000


def _frames(payloads: list[bytes]) -> bytes:
    """Masked client frames as they go on the wire."""
    protocol = ClientProtocol(parse_uri("ws://flood.invalid/"))
    protocol.state = State.OPEN
    for payload in payloads:
        protocol.send_binary(payload)
    return b"".join(protocol.data_to_send())


def _errors(server: RaceServer) -> float:
    value = server.metrics.registry.get_sample_value("solrace_request_errors_total")
    return value or 0.0


async def test_a_ping_is_answered_while_a_flood_of_garbage_is_still_being_read(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, rate_per_s=1e9, rate_burst=1e9)
    url = f"ws://127.0.0.1:{server.port}"
    flooder, other = await Client.open(url, server.clock), await Client.open(url, server.clock)
    flooder.reader.cancel()  # its replies wait in the socket buffers, unread
    flooder.conn.transport.write(_frames([GARBAGE] * FLOOD))
    async with asyncio.timeout(TIMEOUT_S):
        while _errors(server) == 0:
            await asyncio.sleep(0)
    pong = await other.call(Ping)
    answered_after = _errors(server)
    assert pong.type == "pong"
    assert answered_after < 100, f"{answered_after:.0f} garbage frames went before one ping"
    async with asyncio.timeout(6 * TIMEOUT_S):  # a guard: the machine may be slow
        while _errors(server) < FLOOD:
            await asyncio.sleep(0)
    assert _errors(server) == FLOOD, "every garbage frame was answered"
    await flooder.close()
    await other.close()


def test_frames_end_counts_whole_frames_and_keeps_a_partial_one_whole() -> None:
    small, medium, large = b"x", b"m" * 300, b"L" * 70_000
    wire = _frames([small, medium, large, small])
    one = len(_frames([small]))
    two = one + len(_frames([medium]))
    three = two + len(_frames([large]))
    assert frames_end(wire, 1) == one
    assert frames_end(wire, 2) == two
    assert frames_end(wire, 3) == three
    assert frames_end(wire, 4) == frames_end(wire, 9) == len(wire)
    assert frames_end(wire[: two + 5], 3) == two + 5, "a frame cut short goes whole"
    assert frames_end(wire[: two + 1], 3) == two + 1, "so does a header cut short"
    assert frames_end(b"", 4) == 0


@pytest.mark.parametrize("per_turn", [1, 3])
async def test_pipelined_requests_are_all_answered_in_order(
    store: Store, start_server: ServerFactory, per_turn: int
) -> None:
    server = await start_server(store, frames_per_turn=per_turn)
    client = await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)
    pings = [client.call(Ping) for _ in range(30)]
    pongs = await asyncio.gather(*pings)
    assert [pong.id for pong in pongs] == list(range(2, 32))
    await client.close()


async def test_frames_sent_with_the_upgrade_request_wait_for_the_handshake(
    store: Store, start_server: ServerFactory
) -> None:
    """A client that does not wait for ``101`` is answered in order all the same."""
    server = await start_server(store)
    request = (
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    hello = msgpack.packb({"type": "hello", "id": 1, "version": PROTOCOL_VERSION})
    pings = [msgpack.packb({"type": "ping", "id": n}) for n in range(2, 12)]
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(request + _frames([hello, *pings]))
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT_S)
    assert head.startswith(b"HTTP/1.1 101")
    parser = Protocol(Side.CLIENT)
    replies: list[ServerMessage] = []
    async with asyncio.timeout(TIMEOUT_S):
        while len(replies) < 1 + len(pings):
            parser.receive_data(await reader.read(65536))
            frames = [event for event in parser.events_received() if isinstance(event, Frame)]
            replies += [decode_server(bytes(frame.data)) for frame in frames]
    assert [reply.type for reply in replies] == ["welcome"] + ["pong"] * len(pings)
    assert [getattr(reply, "id", None) for reply in replies] == list(range(1, 12))
    writer.close()


@pytest.fixture
def collector_off() -> Iterator[None]:
    """Garbage collection off: what is not freed by reference counting stays."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def _server_connections() -> int:
    return sum(isinstance(found, FairConnection) for found in gc.get_objects())


@pytest.mark.usefixtures("collector_off")
async def test_a_closed_connection_is_freed_without_the_garbage_collector(
    store: Store, start_server: ServerFactory
) -> None:
    """A flood of refused connections must not pile up garbage for one long pause."""
    server = await start_server(store, max_connections_per_address=1, max_held_per_address=0)
    url = f"ws://127.0.0.1:{server.port}"
    admitted = await Client.open(url, server.clock)  # a session, and its dead-end watch
    with pytest.raises(InvalidStatus):
        await connect(url, open_timeout=TIMEOUT_S)  # refused: one connection at a time
    await admitted.close()
    async with asyncio.timeout(TIMEOUT_S):
        while _server_connections():
            await asyncio.sleep(0)
