"""The feed's pub/sub connection, read by a protocol callback."""

from __future__ import annotations

import asyncio

from redis.asyncio import ConnectionPool, Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from server.store._pubsub import Listener


async def test_a_subscription_is_confirmed_and_its_messages_handed_on(redis_url: str) -> None:
    loop = asyncio.get_running_loop()
    confirmed: asyncio.Future[bytes] = loop.create_future()
    heard: asyncio.Future[tuple[bytes, bytes]] = loop.create_future()
    pool = ConnectionPool.from_url(redis_url)
    listener = await Listener.open(pool, lambda *m: heard.set_result(m), confirmed.set_result)
    try:
        listener.subscribe(b"pubsub-test")
        async with asyncio.timeout(5):
            assert await confirmed == b"pubsub-test"
        async with Redis.from_url(redis_url) as client:
            await client.publish("pubsub-test", b"1\nhello")
        async with asyncio.timeout(5):
            assert await heard == (b"pubsub-test", b"1\nhello")
    finally:
        listener.close()
    assert listener.lost.done()


async def test_a_connection_redis_drops_is_reported_lost(redis_url: str) -> None:
    pool = ConnectionPool.from_url(redis_url, client_name="pubsub-test-kill")
    listener = await Listener.open(pool, lambda *_: None, lambda _: None)
    async with Redis.from_url(redis_url) as admin:
        [mine] = [c["id"] for c in await admin.client_list() if c["name"] == "pubsub-test-kill"]
        assert await admin.client_kill_filter(_id=mine) == 1
    async with asyncio.timeout(5):
        assert isinstance(await listener.lost, RedisConnectionError)
