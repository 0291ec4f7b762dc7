"""Faults done for real to real processes: a server killed, Redis killed, a Valkey orphaned.

Each race is on a pinned public deal, and every check is of what the clients were
acknowledged: each acknowledged move is in the results once, in order, and each
client saw every event of its room once.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from protocol import CreateRoom, JoinRoom, Ready, Resume, Settings, Sync
from server.ops.embedded import EmbeddedValkey
from tests.deploy._processes import RedisServer, alive
from tests.deploy._racer import check_results
from tests.deploy.conftest import Clients, StartServers


def _url(port: int) -> str:
    return f"ws://127.0.0.1:{port}"


async def test_a_killed_server_process_loses_no_acknowledged_move(
    embedded_valkey: EmbeddedValkey, start_servers: StartServers, clients: Clients
) -> None:
    prefix = f"solrace-test:{uuid.uuid4().hex}:"
    options = ("--redis", embedded_valkey.url, "--prefix", prefix)
    (first, first_port), (_, second_port) = await asyncio.to_thread(start_servers, 2, *options)
    ann, bob = await clients.seat([first_port, second_port])
    for number in range(3):
        await ann.move(f"a{number}")
        await bob.move(f"b{number}")

    await ann.move_through_a_crash("a3", first.kill, _url(second_port))
    await bob.wait_event_of(ann)
    await ann.move("a4")
    await bob.move("b3")
    await check_results([ann, bob])
    assert ann.acked == [f"a{n}" for n in range(5)]


async def test_the_spectators_of_a_killed_server_process_are_counted_once(
    embedded_valkey: EmbeddedValkey, start_servers: StartServers, clients: Clients
) -> None:
    """One comes back elsewhere and takes their place over; the one who does not is
    dropped by the other process's sweep, which finds the killed one not listening."""
    prefix = f"solrace-test:{uuid.uuid4().hex}:"
    options = ("--redis", embedded_valkey.url, "--prefix", prefix, "--presence-sweep", "1")
    (killed, killed_port), (_, staying_port) = await asyncio.to_thread(start_servers, 2, *options)
    ann = await clients.open(staying_port)
    created = await ann.call(CreateRoom, variant="little-forty", name="Ann", settings=Settings())
    eve, dan = await clients.open(killed_port), await clients.open(killed_port)
    watching = await eve.call(JoinRoom, code=created.code, name="Eve", role="spectator")
    await dan.call(JoinRoom, code=created.code, name="Dan", role="spectator")
    await ann.wait_event("spectator_count", lambda event: event.count == 2)

    await asyncio.to_thread(killed.kill)
    back = await clients.open(staying_port)
    assert (await back.call(Resume, token=watching.token, last_seq=0)).type in {
        "resumed",
        "snapshot",
    }
    await ann.wait_event("spectator_count", lambda _: len(ann.events("spectator_count")) == 3)
    assert [event.count for event in ann.events("spectator_count")] == [1, 2, 1]


async def test_the_host_on_a_killed_server_process_hands_the_room_over(
    embedded_valkey: EmbeddedValkey, start_servers: StartServers, clients: Clients
) -> None:
    """A host whose process was killed, and who does not come back, leaves the lobby
    once the other process's sweep finds the killed one gone; the room goes on."""
    prefix = f"solrace-test:{uuid.uuid4().hex}:"
    options = ("--redis", embedded_valkey.url, "--prefix", prefix, "--presence-sweep", "1")
    (killed, killed_port), (_, staying_port) = await asyncio.to_thread(start_servers, 2, *options)
    ann, bob = await clients.open(killed_port), await clients.open(staying_port)
    created = await ann.call(CreateRoom, variant="little-forty", name="Ann", settings=Settings())
    await bob.call(JoinRoom, code=created.code, name="Bob")

    await asyncio.to_thread(killed.kill)
    assert (await bob.wait_event("host_changed")).seat == 1
    assert (await bob.call(Sync)).room.players[0].name == "Bob"
    assert (await bob.call(Ready, ready=True)).type == "ok"
    await bob.wait_event("countdown")


async def test_a_race_goes_on_through_a_redis_restart(
    redis_server: RedisServer, start_servers: StartServers, clients: Clients
) -> None:
    (_, first_port), (_, second_port) = await asyncio.to_thread(
        start_servers, 2, "--redis", redis_server.url
    )
    ann, bob = await clients.seat([first_port, second_port])
    await ann.move("a0")
    await bob.move("b0")

    await asyncio.to_thread(redis_server.kill)
    refused = await bob.send_move("b1")
    assert bob.refused_for_outage(refused), refused
    await asyncio.to_thread(redis_server.start)
    await bob.move_when_served("b1")
    await ann.wait_event_of(bob)
    await ann.move("a1")
    await bob.wait_event_of(ann)
    await check_results([ann, bob])
    assert (ann.acked, bob.acked) == (["a0", "a1"], ["b0", "b1"])


async def test_the_valkey_a_killed_server_leaves_is_stopped_by_the_next_start(
    start_servers: StartServers, clients: Clients, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    [(server, port)] = await asyncio.to_thread(start_servers, 1, "--data-dir", str(data))
    [ann] = await clients.seat([port])
    await ann.move("a0")
    orphan = int((data / "valkey.pid").read_text())

    await asyncio.to_thread(server.kill)
    assert alive(orphan), "the embedded Valkey should outlive a server killed outright"
    [(_, port)] = await asyncio.to_thread(start_servers, 1, "--data-dir", str(data))
    assert not alive(orphan)
    assert int((data / "valkey.pid").read_text()) != orphan
    await ann.resume(_url(port))
    await ann.move("a1")
    await check_results([ann])
