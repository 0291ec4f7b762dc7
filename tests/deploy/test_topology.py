"""The compose topology run on this host: Redis with AOF, three servers, HAProxy in front.

HAProxy runs ``deploy/haproxy.cfg`` itself, told the addresses by environment
variables. A race is played through the proxy while the server one racer is on is
SIGKILLed (the reconnect goes to another server and the racer resumes) and Redis
is SIGKILLed and restarted on its append-only file (the servers reconnect by
themselves). Then everything is stopped by pid and nothing is left running.
"""

from __future__ import annotations

import asyncio
import re
import urllib.request
from dataclasses import dataclass
from functools import partial

import pytest

from tests.deploy._processes import (
    REPO,
    Processes,
    RedisServer,
    Running,
    free_port,
    healthy,
    require,
    wait_until,
)
from tests.deploy._racer import Racer, check_results
from tests.deploy.conftest import Clients, StartServers
from tests.server._client import Client


@dataclass
class Deployment:
    redis: RedisServer
    servers: dict[int, Running]
    """Server processes by port."""
    proxy_port: int

    @property
    def proxy_url(self) -> str:
        return f"ws://127.0.0.1:{self.proxy_port}"

    def connections(self) -> dict[int, int]:
        """Open WebSocket connections on each live server, from its ``/metrics``."""
        counts = {}
        for port, server in self.servers.items():
            if server.popen.poll() is None:
                counts[port] = _connections(port)
        return counts


def _connections(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as reply:
        text = reply.read().decode()
    found = re.search(r"^solrace_connections (\S+)$", text, flags=re.MULTILINE)
    assert found, text
    return int(float(found.group(1)))


@pytest.fixture
def deployment(
    procs: Processes, redis_server: RedisServer, start_servers: StartServers
) -> Deployment:
    haproxy = require("haproxy")
    started = start_servers(3, "--redis", redis_server.url)
    servers = {port: running for running, port in started}
    proxy_port = free_port()
    env = {"SOLRACE_PROXY_BIND": f"127.0.0.1:{proxy_port}", "SOLRACE_PROXY_MAXCONN": "1000"}
    env |= {f"SOLRACE_SERVER_{n}": f"127.0.0.1:{port}" for n, port in enumerate(servers, 1)}
    proxy = procs.start(
        "haproxy", [haproxy, "-db", "-f", str(REPO / "deploy" / "haproxy.cfg")], env
    )
    procs.check_running(proxy, partial(healthy, proxy_port), "HAProxy to answer /healthz")
    return Deployment(redis_server, servers, proxy_port)


async def _connect_through_proxy(clients: Clients, deployment: Deployment) -> tuple[Client, int]:
    """Open a client through the proxy; it and the port of the server it reached."""
    before = deployment.connections()
    client = await clients.open(deployment.proxy_port)
    reached: list[int] = []

    def one_more() -> bool:
        now = deployment.connections()
        reached[:] = [port for port in now if now[port] == before.get(port, 0) + 1]
        return len(reached) == 1

    await asyncio.to_thread(wait_until, one_more, "the new connection to show in /metrics")
    return client, reached[0]


async def test_a_race_through_the_proxy_survives_a_server_kill_and_a_redis_restart(
    deployment: Deployment, clients: Clients, procs: Processes
) -> None:
    ann_client, ann_port = await _connect_through_proxy(clients, deployment)
    bob_client, bob_port = await _connect_through_proxy(clients, deployment)
    ann, bob = await clients.seat_clients([ann_client, bob_client])
    for number in range(3):
        await _play_round(ann, bob, number)
    assert deployment.connections()[ann_port] >= 1

    killed = deployment.servers[ann_port]
    await ann.move_through_a_crash("a3", killed.kill, deployment.proxy_url)
    if bob_port == ann_port:
        await bob.client.closed()
        await bob.resume(deployment.proxy_url)
    both_on_the_others = partial(lambda d: sum(d.connections().values()) == 2, deployment)
    await asyncio.to_thread(wait_until, both_on_the_others, "both racers on the live servers")
    await bob.move("b3")
    await ann.wait_event_of(bob)
    await bob.wait_event_of(ann)

    await asyncio.to_thread(deployment.redis.kill)
    refused = await ann.send_move("a4")
    assert ann.refused_for_outage(refused), refused
    await asyncio.to_thread(deployment.redis.start)
    await ann.move_when_served("a4")
    await bob.wait_event_of(ann)
    await bob.move("b4")
    await check_results([ann, bob])
    assert ann.acked == [f"a{n}" for n in range(5)]

    await asyncio.to_thread(procs.stop_all)
    assert procs.leftovers() == []


async def _play_round(ann: Racer, bob: Racer, number: int) -> None:
    """A move each; each sees the other's."""
    await ann.move(f"a{number}")
    await bob.move(f"b{number}")
    await ann.wait_event_of(bob)
    await bob.wait_event_of(ann)
