"""The feed's pub/sub connection, taken over from redis-py."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from server.store._pubsub import Listener
from server.store._wire import closed_by_redis


async def test_a_pooled_connection_redis_closed_while_idle_is_opened_again_first(
    redis_url: str,
) -> None:
    client = Redis.from_url(redis_url)
    try:
        idle = await client.client_id()  # its connection goes back to the pool, idle
        async with Redis.from_url(redis_url) as other:
            assert await other.client_kill_filter(_id=str(idle)) == 1
        [pooled] = client.connection_pool._available_connections
        async with asyncio.timeout(5):
            while not closed_by_redis(pooled):
                await asyncio.sleep(0)  # the loop reads the end of Redis's side
        confirmed: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        pubsub = client.pubsub()
        listener = await Listener.open(pubsub, lambda *_: None, confirmed.set_result)
        assert pubsub.connection is pooled  # the one Redis closed, opened again
        listener.subscribe(b"pubsub-test")
        async with asyncio.timeout(5):
            assert await confirmed == b"pubsub-test"
        await pubsub.aclose()
    finally:
        await client.aclose()
