"""The server process around the races: health, metrics, restarts and orderly shutdown."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

import engine
from protocol import (
    CloseCode,
    CreateRoom,
    ErrorCode,
    GoingAway,
    MakeMove,
    MoveOk,
    Resume,
    Settings,
    Sync,
)
from server.app import RaceServer
from server.ops.embedded import EmbeddedValkey
from server.store import Store
from tests.conftest import OpenStore
from tests.server._client import Client, start_race
from tests.server.conftest import ServerFactory

Connect = Callable[[], Awaitable[Client]]
VARIANT, DEAL = "little-forty", 9
SETTINGS = Settings(countdown_s=1, deal_number=DEAL)
SERVER_COMMAND = Path(sys.executable).with_name("solrace-server")


def _deal() -> engine.GameState:
    return engine.new_game(VARIANT, b"deal:%d" % DEAL)


def _url(server: RaceServer) -> str:
    return f"ws://127.0.0.1:{server.port}"


async def _get(port: int, path: str) -> tuple[int, str]:
    """Status and body of a plain HTTP GET on the server's port."""

    def fetch() -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.read().decode()

    return await asyncio.to_thread(fetch)


async def _metrics(server: RaceServer) -> dict[str, float]:
    status, body = await _get(server.port, "/metrics")
    assert status == 200
    samples = [line.rsplit(" ", 1) for line in body.splitlines() if not line.startswith("#")]
    return {name: float(value) for name, value in samples}


async def _moves(client: Client, count: int, first_version: int = 0) -> list[MoveOk]:
    """Make `count` stock moves (draw), each acknowledged."""
    replies = []
    for version in range(first_version, first_version + count):
        reply = await client.call(
            MakeMove, move="draw", move_id=f"d{version}", expected_version=version
        )
        assert isinstance(reply, MoveOk), reply
        replies.append(reply)
    return replies


# Health and metrics


async def test_health_answers_plain_http(race_server: RaceServer) -> None:
    assert await _get(race_server.port, "/healthz") == (200, "ok\n")
    status, _ = await _get(race_server.port, "/nowhere")
    assert status == 404


async def test_readiness_needs_the_store_and_liveness_does_not(
    private_valkey: EmbeddedValkey, start_server: ServerFactory
) -> None:
    server = await start_server(await Store.connect(private_valkey.url), ready_timeout_s=2.0)
    assert await _get(server.port, "/readyz") == (200, "ready\n")
    await asyncio.to_thread(private_valkey.stop)
    assert await _get(server.port, "/readyz") == (503, "not ready: store unavailable\n")
    assert await _get(server.port, "/healthz") == (200, "ok\n")
    await asyncio.to_thread(private_valkey.start)
    assert await _get(server.port, "/readyz") == (200, "ready\n")


async def test_metrics_count_moves_refusals_and_latency(
    connect: Connect, race_server: RaceServer
) -> None:
    before = await _metrics(race_server)
    assert before["solrace_moves_total"] == 0
    ann = await connect()
    await start_race([ann], VARIANT, SETTINGS)
    await _moves(ann, 3)
    bad = await ann.call(MakeMove, move="t1 t1", move_id="x", expected_version=3)
    assert bad.type == "error" and bad.code == ErrorCode.MOVE_ILLEGAL
    garbled = await ann.call(MakeMove, move="nonsense", move_id="y", expected_version=3)
    assert garbled.type == "error" and garbled.code == ErrorCode.MOVE_INVALID

    after = await _metrics(race_server)
    assert after["solrace_moves_total"] == 3
    assert after["solrace_moves_rejected_total"] == 2
    assert after["solrace_request_errors_total"] >= before["solrace_request_errors_total"] + 2
    assert after["solrace_connections"] == 1
    assert after["solrace_rooms"] == 1
    assert after["solrace_move_latency_seconds_count"] == 3
    assert after['solrace_move_latency_seconds_bucket{le="+Inf"}'] == 3
    assert 0 < after["solrace_move_latency_seconds_sum"] < 3
    buckets = [value for name, value in after.items() if "_bucket{" in name]
    assert buckets == sorted(buckets)


async def test_metrics_give_each_games_pool_level_as_it_is_at_the_scrape(
    connect: Connect, race_server: RaceServer, store: Store
) -> None:
    def level(samples: dict[str, float], game: str) -> float:
        return samples[f'solrace_winnable_deals{{variant="{game}"}}']

    await store.add_winnable("little-milligan", [b"one", b"two"])
    scraped = await _metrics(race_server)
    assert [level(scraped, game) for game in engine.VARIANT_KEYS] == [0, 2, 0, 0]
    winnable = Settings(countdown_s=1, winnable_only=True)
    ann = await connect()
    await ann.call(CreateRoom, variant="little-milligan", name="Ann", settings=winnable)
    assert level(await _metrics(race_server), "little-milligan") == 1


# Restart


async def test_a_race_survives_a_restart_of_server_and_embedded_valkey(
    private_valkey: EmbeddedValkey, start_server: ServerFactory
) -> None:
    server = await start_server(await Store.connect(private_valkey.url))
    ann = await Client.open(_url(server), server.clock)
    (joined,) = await start_race([ann], VARIANT, SETTINGS)
    played = await _moves(ann, 4)
    await server.stop()
    assert await ann.closed() == CloseCode.GOING_AWAY
    await asyncio.to_thread(private_valkey.stop)

    await asyncio.to_thread(private_valkey.start)
    server = await start_server(await Store.connect(private_valkey.url))
    back = await Client.open(_url(server), server.clock)
    resumed = await back.call(Resume, token=joined.token, last_seq=joined.seq)
    assert resumed.type == "resumed", resumed
    assert (resumed.code, resumed.seat, resumed.version) == (joined.code, 0, 4)
    assert resumed.board == played[-1].board
    snapshot = await back.call(Sync)
    assert snapshot.room.phase == "racing" and snapshot.room.race_no == 1
    assert snapshot.room.start_at_ms is not None
    more = await _moves(back, 2, first_version=4)
    assert more[-1].version == 6
    await back.close()


# Shutdown


async def test_shutdown_says_going_away_then_closes_1001(
    connect: Connect, race_server: RaceServer
) -> None:
    ann, watcher = await connect(), await connect()
    await start_race([ann], VARIANT, SETTINGS)
    await race_server.stop()
    for client in (ann, watcher):
        notice = await client.wait_pushed("going_away")
        assert isinstance(notice, GoingAway) and notice.reconnect_in_ms >= 0
        assert await client.closed() == CloseCode.GOING_AWAY
        assert client.pushed.index(notice) == len(client.pushed) - 1


async def test_a_move_in_flight_at_shutdown_is_applied_once(
    open_store: OpenStore, start_server: ServerFactory
) -> None:
    """Sent just before the server stops: acknowledged, or answered once resent after resume."""
    server = await start_server(await open_store())
    ann = await Client.open(_url(server), server.clock)
    (joined,) = await start_race([ann], VARIANT, SETTINGS)
    text = next(m for m in engine.legal_moves(_deal()) if m.action == "move").format()
    request = {"type": "move", "id": 5_000, "move": text, "move_id": "last", "expected_version": 0}
    await ann.send_map(request)
    await server.stop()
    assert await ann.closed() == CloseCode.GOING_AWAY
    first = [m for m in ann.pushed if isinstance(m, MoveOk)]

    store = await open_store()
    server = await start_server(store)
    back = await Client.open(_url(server), server.clock)
    resumed = await back.call(Resume, token=joined.token, last_seq=joined.seq)
    assert resumed.type == "resumed"
    again = await back.call(MakeMove, move=text, move_id="last", expected_version=0)
    assert isinstance(again, MoveOk), again
    assert again.version == 1
    if first:
        assert first[0].board == again.board
    log = await store.move_log(joined.code, 0)
    assert [(entry.text, entry.move_id) for entry in log] == [(text, "last")]
    await back.close()


async def test_concurrent_stops_shut_down_once(
    connect: Connect, race_server: RaceServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    closes = _count_calls(monkeypatch, store, "close")
    ann = await connect()
    await asyncio.gather(race_server.stop(), race_server.stop(), race_server.stop())
    assert await ann.closed() == CloseCode.GOING_AWAY
    assert [m.type for m in ann.pushed] == ["going_away"]
    assert closes == [()]


async def test_a_second_stop_returns_once_the_first_is_done_and_does_nothing_more(
    connect: Connect, race_server: RaceServer, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    closes = _count_calls(monkeypatch, store, "close")
    ann = await connect()
    first = asyncio.create_task(race_server.stop())
    await asyncio.sleep(0)
    await race_server.stop()
    assert first.done() and closes == [()]
    await race_server.stop()
    assert closes == [()]
    assert await ann.closed() == CloseCode.GOING_AWAY
    assert [m.type for m in ann.pushed] == ["going_away"]


async def test_stop_closes_every_socket_at_once_and_aborts_the_deaf_ones_in_time(
    store: Store, start_server: ServerFactory
) -> None:
    """Sockets close together: clients that never answer the close cost the grace, once."""
    grace_s = 0.3
    server = await start_server(
        store, shutdown_grace_s=grace_s, max_connections_per_address=40, new_connections_burst=40
    )
    clients = [await Client.open(_url(server)) for _ in range(40)]
    deaf, heard = clients[:5], clients[5:]
    for client in deaf:
        client.conn.transport.pause_reading()
    async with asyncio.timeout(grace_s + 2):
        await server.stop()
    for client in heard:
        assert await client.closed() == CloseCode.GOING_AWAY
        assert [m.type for m in client.pushed] == ["going_away"]
    for client in deaf:
        client.conn.transport.resume_reading()
        await client.closed()
    for client in clients:
        await client.close()


def _count_calls(monkeypatch: pytest.MonkeyPatch, target: object, name: str) -> list[tuple[()]]:
    """Record each call of `target.name` (an async method without arguments)."""
    calls: list[tuple[()]] = []
    original = getattr(target, name)

    async def counted() -> None:
        calls.append(())
        await original()

    monkeypatch.setattr(target, name, counted)
    return calls


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_the_server_command_stops_cleanly_on_sigterm(redis_url: str, key_prefix: str) -> None:
    port = _free_port()
    command = [str(SERVER_COMMAND), "--redis", redis_url, "--port", str(port)]
    process = await asyncio.create_subprocess_exec(
        *command,
        "--prefix",
        key_prefix,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        banner = await asyncio.wait_for(process.stdout.readline(), 20)
        assert f"ws://127.0.0.1:{port}" in banner.decode()
        client = await Client.open(f"ws://127.0.0.1:{port}")
        refused = await client.call(Sync)
        assert refused.type == "error" and refused.code == ErrorCode.ROOM_NOT_MEMBER
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 10) == 0
        assert await client.closed() == CloseCode.GOING_AWAY
        assert [m.type for m in client.pushed] == ["going_away"]
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    _, errors = await process.communicate()
    assert b"Traceback" not in errors, errors.decode()
