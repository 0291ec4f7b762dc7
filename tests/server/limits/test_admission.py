"""Limits per client address: connections open, new connections, join attempts, proxies."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from protocol import PROTOCOL_VERSION, CreateRoom, ErrorCode, Hello, JoinRoom, Ping, Settings
from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.limits.admission import AddressLimits
from server.store import Store
from tests.conftest import OpenStore
from tests.server._client import TIMEOUT_S, Client
from tests.server.conftest import ServerFactory

PROXY = "127.0.0.1"
"""The tests' clients all come from here; a test may trust it as a proxy."""


def _url(server: RaceServer) -> str:
    return f"ws://127.0.0.1:{server.port}"


async def _status(server: RaceServer, forwarded: str | None = None) -> int:
    """The HTTP status of an upgrade (101: accepted; the connection is closed again)."""
    headers = {"X-Forwarded-For": forwarded} if forwarded else None
    try:
        conn = await connect(_url(server), additional_headers=headers, open_timeout=TIMEOUT_S)
    except InvalidStatus as refused:
        assert refused.response.headers["Retry-After"] == "1"
        return refused.response.status_code
    await conn.close()
    return 101


async def _open(server: RaceServer, forwarded: str) -> Client:
    conn = await connect(_url(server), additional_headers={"X-Forwarded-For": forwarded})
    client = Client(conn, server.clock)
    welcome = await client.call(Hello, version=PROTOCOL_VERSION, client="tests")
    assert welcome.type == "welcome"
    return client


async def _until(condition: Callable[[], bool]) -> None:
    """Let the event loop run until `condition` holds (the server notices a close)."""
    async with asyncio.timeout(TIMEOUT_S):
        while not condition():
            await asyncio.sleep(0)


async def test_an_address_has_at_most_its_cap_of_connections_open(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, max_connections_per_address=3, max_held_per_address=0)
    clients = [await Client.open(_url(server), server.clock) for _ in range(3)]
    assert await _status(server) == 429
    await clients[0].close()
    await _until(lambda: server.limits.open.get(PROXY) == 2)
    clients[0] = await Client.open(_url(server), server.clock)
    assert await _status(server) == 429
    assert server.metrics.registry.get_sample_value("solrace_connections_refused_total") == 2
    for client in clients:
        await client.close()


async def test_new_connections_are_limited_per_second_and_refill_with_the_clock(
    store: Store, start_server: ServerFactory, clock: ManualClock
) -> None:
    server = await start_server(
        store, new_connections_per_s=2.0, new_connections_burst=3, max_held_per_address=0
    )
    assert [await _status(server) for _ in range(4)] == [101, 101, 101, 429]
    clock.advance(499)
    assert await _status(server) == 429
    clock.advance(1)
    assert [await _status(server) for _ in range(2)] == [101, 429]
    clock.advance(1000)
    assert [await _status(server) for _ in range(3)] == [101, 101, 429]


async def test_join_attempts_are_limited_per_address_with_rate_limited_and_refill(
    store: Store, start_server: ServerFactory, clock: ManualClock
) -> None:
    server = await start_server(store, joins_per_minute=6.0, joins_burst=2)
    host, guesser, other = [await Client.open(_url(server), server.clock) for _ in range(3)]
    created = await host.call(CreateRoom, variant="little-forty", name="Ann", settings=Settings())
    for wrong in ("AAAAAA", "BBBBBB"):
        missed = await guesser.call(JoinRoom, code=wrong, name="Eve", role="spectator")
        assert (missed.type, missed.code) == ("error", ErrorCode.ROOM_NOT_FOUND)
    right = await guesser.call(JoinRoom, code=created.code, name="Eve", role="spectator")
    assert (right.type, right.code) == ("error", ErrorCode.PROTO_RATE_LIMITED)
    assert right.id is not None and "join attempts" in right.message and "10 s" in right.message
    as_player = await other.call(JoinRoom, code=created.code, name="Bob")
    assert (as_player.type, as_player.code) == ("error", ErrorCode.PROTO_RATE_LIMITED)
    clock.advance(10_000)
    joined = await other.call(JoinRoom, code=created.code, name="Bob")
    assert joined.type == "joined"
    again = await guesser.call(JoinRoom, code=created.code, name="Eve", role="spectator")
    assert (again.type, again.code) == ("error", ErrorCode.PROTO_RATE_LIMITED)
    assert (await guesser.call(Ping)).type == "pong", "a refused join is not a strike"
    for client in (host, guesser, other):
        await client.close()


async def test_x_forwarded_for_names_the_client_only_behind_a_trusted_proxy(
    store: Store, open_store: OpenStore, start_server: ServerFactory
) -> None:
    trusting = await start_server(
        store, max_connections_per_address=1, trusted_proxies=(PROXY,), max_held_per_address=0
    )
    ann = await _open(trusting, "198.51.100.7")
    bob = await _open(trusting, "203.0.113.9")
    assert await _status(trusting, "198.51.100.7") == 429
    assert await _status(trusting, "192.0.2.1, 198.51.100.7") == 429, "only the last hop counts"
    assert set(trusting.limits.open) == {"198.51.100.7", "203.0.113.9"}
    direct = await start_server(
        await open_store(), max_connections_per_address=1, max_held_per_address=0
    )
    cy = await _open(direct, "198.51.100.7")
    assert await _status(direct, "203.0.113.9") == 429, "a peer not trusted cannot pick its address"
    assert set(direct.limits.open) == {PROXY}
    for client in (ann, bob, cy):
        await client.close()


@pytest.mark.parametrize(
    ("peer", "forwarded", "address"),
    [
        ("10.0.0.5", ["1.2.3.4, 198.51.100.7, 10.0.0.9"], "198.51.100.7"),
        ("10.0.0.5", ["1.2.3.4", "198.51.100.7"], "198.51.100.7"),
        ("10.0.0.5", [], "10.0.0.5"),
        ("10.0.0.5", ["unknown"], "10.0.0.5"),
        ("10.0.0.5", ["10.0.0.7, 10.0.0.9"], "10.0.0.7"),
        ("198.51.100.9", ["1.2.3.4"], "198.51.100.9"),
        ("2001:db8::1", [], "2001:db8::/64"),
        ("10.0.0.5", ["2001:db8:0:0:ffff::2"], "2001:db8::/64"),
        ("::ffff:198.51.100.3", [], "198.51.100.3"),
    ],
)
def test_the_client_address_reads_forwarded_hops_from_the_right_past_trusted_proxies(
    peer: str, forwarded: list[str], address: str, clock: ManualClock
) -> None:
    limits = AddressLimits(Config(trusted_proxies=("10.0.0.0/8",)), clock)
    assert limits.client_address(peer, forwarded) == address


def test_address_buckets_are_forgotten_once_full_again(clock: ManualClock) -> None:
    limits = AddressLimits(Config(new_connections_per_s=1.0, new_connections_burst=1), clock)
    for number in range(1023):
        address = f"10.0.{number // 256}.{number % 256}"
        assert limits.admit(address) is None
        limits.release(address)
    assert limits.admit("10.0.0.0") is not None, "its one connection a second is spent"
    clock.advance(1000)
    assert limits.admit("192.0.2.1") is None
    assert len(limits.arrivals.buckets) == 1024 and limits.open == {"192.0.2.1": 1}
    assert limits.admit("192.0.2.2") is None
    assert set(limits.arrivals.buckets) == {"192.0.2.1", "192.0.2.2"}


async def _released(server: RaceServer, clock: ManualClock, held: asyncio.Task[int]) -> float:
    """Advance the clock 100 ms at a time until the server lets go of its held
    connections; the seconds that took. The held upgrade ``held`` is answered then."""
    start = clock.monotonic()
    async with asyncio.timeout(TIMEOUT_S):
        while server.limits.held:
            clock.advance(100)
            for _ in range(5):  # the held task wakes, looks again, and answers or loops
                await asyncio.sleep(0)
        await asyncio.wait({held})
    return clock.monotonic() - start


async def test_a_connection_over_the_rate_waits_unanswered_and_opens_when_the_rate_allows(
    store: Store, start_server: ServerFactory, clock: ManualClock
) -> None:
    server = await start_server(store, new_connections_per_s=1.0, new_connections_burst=1)
    assert await _status(server) == 101
    held = asyncio.create_task(_status(server))
    await _until(lambda: server.limits.held.get(PROXY) == 1)
    assert not held.done(), "held, not answered"
    assert 0.9 <= await _released(server, clock, held) <= 1.1, "opened once the rate allows"
    assert held.result() == 101
    assert server.limits.held == {}
    assert server.metrics.registry.get_sample_value("solrace_connections_refused_total") == 0


async def test_a_held_connection_is_refused_once_its_hold_is_over(
    store: Store, start_server: ServerFactory, clock: ManualClock
) -> None:
    server = await start_server(
        store, new_connections_per_s=0.01, new_connections_burst=1, hold_s=2.0
    )
    assert await _status(server) == 101
    held = asyncio.create_task(_status(server))
    await _until(lambda: server.limits.held.get(PROXY) == 1)
    assert 2.0 <= await _released(server, clock, held) <= 2.2
    assert held.result() == 429
    assert server.limits.held == {}


async def test_an_address_holds_at_most_its_cap_and_is_refused_at_once_beyond(
    store: Store, start_server: ServerFactory, clock: ManualClock
) -> None:
    server = await start_server(
        store, max_connections_per_address=1, max_held_per_address=1, trusted_proxies=(PROXY,)
    )
    ann = await _open(server, "198.51.100.7")
    held = asyncio.create_task(_status(server, "198.51.100.7"))
    await _until(lambda: server.limits.held.get("198.51.100.7") == 1)
    assert await _status(server, "198.51.100.7") == 429, "past the cap of held: at once"
    assert await _status(server, "203.0.113.9") == 101, "another address is not held"
    await ann.close()
    await _until(
        lambda: PROXY not in server.limits.open and "198.51.100.7" not in server.limits.open
    )
    assert await _released(server, clock, held) <= 0.3, "opens once the address's one has closed"
    assert held.result() == 101


async def test_a_server_stops_at_once_with_connections_held(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store, new_connections_per_s=0.01, new_connections_burst=1)
    assert await _status(server) == 101
    held = asyncio.create_task(_status(server))
    await _until(lambda: server.limits.held.get(PROXY) == 1)
    async with asyncio.timeout(TIMEOUT_S):
        await server.stop()
    assert await held == 503, "told the server is stopping, at once"
