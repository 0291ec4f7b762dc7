"""The store on a real Redis Cluster (3 masters, 3 replicas on loopback).

The cluster is started once for the module; each test keeps its keys under a
prefix of its own.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import pytest
from redis.asyncio.cluster import RedisCluster

from protocol import Sync
from server.store import Duplicate, FeedEvent, Store, StoreUnavailable
from server.store._keys import StoreKeys, room_shard
from server.store._store import SCRIPTS
from tests.deploy._cluster import LoopbackCluster
from tests.deploy._processes import processes
from tests.deploy._racer import Racer, check_results
from tests.deploy.conftest import Clients, StartServers
from tests.server.store._calls import CODES, calls_of
from tests.server.store._helpers import CODE, move, next_item, open_feed, start

OpenOn = Callable[[int], Awaitable[Store]]
"""Opens a store through the node of that index."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackCluster]:
    directory = tmp_path_factory.mktemp("cluster")
    with processes(directory) as group:
        cluster = LoopbackCluster(group, directory)
        cluster.start()
        yield cluster


@pytest.fixture
async def client(cluster: LoopbackCluster) -> AsyncIterator[RedisCluster]:
    client = RedisCluster(host="127.0.0.1", port=cluster.ports[0])
    await client.initialize()
    yield client
    await client.aclose()


@pytest.fixture
def prefix() -> str:
    return f"solrace-test:{uuid.uuid4().hex}:"


@pytest.fixture
async def open_on(cluster: LoopbackCluster, prefix: str) -> AsyncIterator[OpenOn]:
    stores: list[Store] = []

    async def open_(node: int) -> Store:
        url = f"redis+cluster://127.0.0.1:{cluster.ports[node]}"
        store = await Store.connect(url, prefix)
        stores.append(store)
        return store

    yield open_
    for store in stores:
        await store.close()


async def test_every_script_of_the_store_runs_on_a_cluster(
    client: RedisCluster, prefix: str
) -> None:
    for script in SCRIPTS:
        assert await client.script_load(script.source) == script.sha
    slots = set()
    for code in CODES:
        for call in calls_of(code, prefix):
            reply = await client.evalsha(call.script.sha, len(call.keys), *call.keys, *call.args)
            assert isinstance(reply, list) and isinstance(reply[0], int), reply
            slots.add(client.keyslot(call.keys[0]))
    assert len(slots) > 1


async def test_stores_on_different_nodes_share_a_room_and_its_events(open_on: OpenOn) -> None:
    host, other = await open_on(0), await open_on(4)
    await start(host)
    feed, items = open_feed(other)
    await feed.watch(CODE, 1)
    first = await move(host, 0, 0, "m1")
    assert await next_item(items) == FeedEvent(CODE, 2, b"moved m1")
    assert await host.listening({(CODE, other.process)}) == {(CODE, other.process)}
    await move(host, 0, 1, "m2")
    assert await next_item(items) == FeedEvent(CODE, 3, b"moved m2")
    assert await move(other, 0, 0, "m1") == Duplicate(first.seq, first.version)
    await move(other, 1, 0, "n1")
    player = await host.load_player(CODE, 1)
    assert player is not None and player.version == 1


async def test_every_shard_s_deadlines_are_claimed_once(open_on: OpenOn) -> None:
    host, other = await open_on(1), await open_on(2)
    codes = [f"DL{number:04d}" for number in range(40)]
    assert len({room_shard(code) for code in codes}) > 10
    for code in codes:
        assert await host.create_room(code, b"lobby")
        await host.save_room(code, 0, b"countdown", deadline_ms=1_000)
    claims = await asyncio.gather(
        host.claim_deadlines(1_000, 60_000), other.claim_deadlines(1_000, 60_000)
    )
    assert sorted(claims[0] + claims[1]) == codes
    assert await other.deadline_of(codes[0]) == 60_000


async def test_a_race_goes_on_through_a_failover_and_loses_no_acknowledged_move(
    cluster: LoopbackCluster, client: RedisCluster, open_on: OpenOn, prefix: str
) -> None:
    store = await open_on(0)
    await start(store)
    master = client.get_node_from_key(StoreKeys(prefix).room(CODE).room)
    assert master is not None
    failing_over = asyncio.create_task(
        asyncio.to_thread(cluster.failover, cluster.replica_of(int(master.port)))
    )
    acknowledged: list[str] = []
    refused = 0
    while not failing_over.done() or len(acknowledged) < 20:
        move_id = f"m{len(acknowledged)}"
        try:
            result = await move(store, 0, len(acknowledged), move_id)
        except StoreUnavailable:
            refused += 1  # sent again under the same id, as a client does
            continue
        assert result.version == len(acknowledged) + 1
        acknowledged.append(move_id)
    await failing_over
    player = await store.load_player(CODE, 0)
    assert player is not None and player.version == len(acknowledged)
    logged = await store.move_log(CODE, 0)
    assert [move_id for _, _, move_id in logged] == acknowledged


async def _race_on(
    cluster: LoopbackCluster, prefix: str, start_servers: StartServers, clients: Clients
) -> tuple[Racer, Racer]:
    """Two server processes on the cluster, each through a node of its own, and a race
    with a racer on each."""
    servers = []
    for node in (0, 3):
        url = f"redis+cluster://127.0.0.1:{cluster.ports[node]}"
        servers += await asyncio.to_thread(start_servers, 1, "--redis", url, "--prefix", prefix)
    ann, bob = await clients.seat([port for _, port in servers])
    return ann, bob


async def test_a_race_across_two_server_processes_on_a_cluster(
    cluster: LoopbackCluster, prefix: str, start_servers: StartServers, clients: Clients
) -> None:
    ann, bob = await _race_on(cluster, prefix, start_servers, clients)
    for number in range(5):
        await ann.move(f"a{number}")
        await bob.move(f"b{number}")
    await bob.wait_event_of(ann)
    await check_results([ann, bob])
    assert (ann.acked, bob.acked) == ([f"a{n}" for n in range(5)], [f"b{n}" for n in range(5)])


async def test_a_race_of_two_server_processes_goes_on_through_a_failover(
    cluster: LoopbackCluster,
    client: RedisCluster,
    prefix: str,
    start_servers: StartServers,
    clients: Clients,
) -> None:
    ann, bob = await _race_on(cluster, prefix, start_servers, clients)
    await ann.move("a0")
    code = (await ann.client.call(Sync)).room.code
    master = client.get_node_from_key(StoreKeys(prefix).room(code).room)
    assert master is not None
    failing_over = asyncio.create_task(
        asyncio.to_thread(cluster.failover, cluster.replica_of(int(master.port)))
    )
    number = 0
    while not failing_over.done() or number < 3:
        number += 1
        await bob.move_when_served(f"b{number}")
        await ann.move_when_served(f"a{number}")
    await failing_over
    await bob.wait_event_of(ann)
    await check_results([ann, bob])
    assert ann.acked == [f"a{n}" for n in range(number + 1)]
    assert bob.acked == [f"b{n}" for n in range(1, number + 1)]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


async def test_accounts_and_challenges_work_on_a_cluster(open_on: OpenOn) -> None:
    store = await open_on(2)
    assert await store.create_account("a1", "Ada", _digest("ada"), _digest("key a1"), 5)
    assert await store.rename_account("a1", "Grace", _digest("grace"))
    found = await store.account_by_key(_digest("key a1"))
    assert found is not None and found.name == "Grace"
    assert await store.account_by_name(_digest("ada")) is None
    await store.delete_account("a1")
    assert await store.load_account("a1") is None
    assert await store.account_by_name(_digest("grace")) is None

    runs = {"r1": (b"run 1", b"moves 1")}
    made = await store.create_challenge("CH1", b"body", runs, room=CODE, race_no=1, keep_ms=60_000)
    assert made == "CH1"
    assert await store.race_challenge(CODE, 1) == "CH1"
    assert await store.add_run("CH1", "r2", b"run 2", b"moves 2")
    record = await store.load_challenge("CH1")
    assert record is not None and [run_id for run_id, _ in record.runs] == ["r1", "r2"]
    assert await store.run_logs("CH1", ["r1", "r2"]) == {"r1": b"moves 1", "r2": b"moves 2"}
