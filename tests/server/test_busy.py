"""Storage outages: a request that cannot reach Redis is answered ``server/busy``.

The connection stays open, and the same request succeeds once Redis is back.
"""

from __future__ import annotations

import asyncio

from protocol import CreateRoom, ErrorCode, Ping
from server.ops.embedded import EmbeddedValkey
from server.store import Store
from tests.server._client import Client
from tests.server.conftest import ServerFactory, opened_clients


async def test_a_request_during_a_redis_outage_is_busy_and_the_connection_survives(
    private_valkey: EmbeddedValkey, start_server: ServerFactory
) -> None:
    server = await start_server(await Store.connect(private_valkey.url, retries=0))
    async with opened_clients(Client.open, server) as open_:
        ann = await open_()
        await asyncio.to_thread(private_valkey.stop)
        busy = await ann.call(CreateRoom, variant="little-forty", name="Ann")
        assert busy.type == "error" and busy.code == ErrorCode.SERVER_BUSY, busy
        assert busy.message
        assert (await ann.call(Ping)).type == "pong"

        await asyncio.to_thread(private_valkey.start)
        created = await ann.call(CreateRoom, variant="little-forty", name="Ann")
        assert created.type == "joined", created
