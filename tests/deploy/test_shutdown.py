"""SIGTERM to a server process while players have pipelined moves in flight.

Every move the server read is answered (acknowledged or refused) before
``going_away`` and the close 1001; the process exits cleanly. The players resume
on a new process and resend what was left unanswered under the same move ids:
the results hold each move once, in order, and nothing applied went unacknowledged.
"""

from __future__ import annotations

import asyncio
import signal
import uuid
from pathlib import Path

import engine
from protocol import CloseCode, GoingAway, MoveOk, Sync, decode_server
from server.ops.embedded import EmbeddedValkey
from tests.deploy._processes import DEADLINE_S, alive
from tests.deploy._racer import Racer, check_results
from tests.deploy.conftest import Clients, StartServers
from tests.server._pipeline import FIRST_ID, PIPELINED, pipeline, replies, stock_line


def _url(port: int) -> str:
    return f"ws://127.0.0.1:{port}"


def _take_answers(racer: Racer, line: list[str]) -> None:
    """Check the replies to the pipelined moves and keep the acknowledged ones."""
    answered = replies(racer.client)
    ids = [getattr(reply, "id", None) for reply in answered]
    assert ids == list(range(FIRST_ID, FIRST_ID + len(ids))), ids
    for reply in answered:
        assert isinstance(reply, MoveOk), reply
        racer.state = engine.apply(racer.state, engine.Move.parse(line[racer.version]))
        racer.version = reply.version
        racer.acked.append(reply.move_id)
    assert isinstance(decode_server(racer.client.frames[-1]), GoingAway)


async def test_sigterm_answers_pipelined_moves_then_clients_resume_and_resend(
    embedded_valkey: EmbeddedValkey, start_servers: StartServers, clients: Clients
) -> None:
    options = ("--redis", embedded_valkey.url, "--prefix", f"solrace-test:{uuid.uuid4().hex}:")
    [(server, port)] = await asyncio.to_thread(start_servers, 1, *options)
    racers = await clients.seat([port, port, port])
    line = stock_line(PIPELINED)
    for racer in racers:
        await pipeline(racer.client, racer.seat, line)
    await racers[0].client.wait_event("progress")
    assert await asyncio.to_thread(server.terminate) == 0
    assert "Traceback" not in server.output(), server.output()

    [(_, port)] = await asyncio.to_thread(start_servers, 1, *options)
    for racer in racers:
        assert await racer.client.closed() == CloseCode.GOING_AWAY
        _take_answers(racer, line)
        await racer.resume(_url(port))
        synced = await racer.client.call(Sync)
        assert synced.version == racer.version, "a move was applied but not acknowledged"
        for version in range(racer.version, PIPELINED):
            await racer.move(f"s{racer.seat}-m{version}")
    await check_results(racers)


async def test_closing_the_servers_terminal_stops_it_and_its_valkey(
    start_servers: StartServers, tmp_path: Path
) -> None:
    """SIGHUP (the terminal it runs in is closed) stops the server as SIGTERM does;
    Valkey ignores SIGHUP, so the server must stop it."""
    data = tmp_path / "data"
    [(server, _)] = await asyncio.to_thread(start_servers, 1, "--data-dir", str(data))
    valkey = int((data / "valkey.pid").read_text())
    server.popen.send_signal(signal.SIGHUP)
    assert await asyncio.to_thread(server.popen.wait, DEADLINE_S) == 0
    assert not alive(valkey)
