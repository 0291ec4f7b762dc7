"""The store on a real Redis Cluster (3 masters, 3 replicas on loopback)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio.cluster import RedisCluster

from server.store._store import SCRIPTS
from tests.deploy._cluster import LoopbackCluster
from tests.deploy._processes import processes
from tests.server.store._calls import CODES, calls_of


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
    yield client
    await client.aclose()


async def test_every_script_of_the_store_runs_on_a_cluster(client: RedisCluster) -> None:
    for script in SCRIPTS:
        assert await client.script_load(script.source) == script.sha
    prefix = f"solrace-test:{uuid.uuid4().hex}:"
    slots = set()
    for code in CODES:
        for call in calls_of(code, prefix):
            reply = await client.evalsha(call.script.sha, len(call.keys), *call.keys, *call.args)
            assert isinstance(reply, list) and isinstance(reply[0], int), reply
            slots.add(client.keyslot(call.keys[0]))
    assert len(slots) > 1
