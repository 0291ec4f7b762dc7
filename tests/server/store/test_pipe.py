"""The script runner's own connection: batches out, their replies parsed as they arrive."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlparse

import pytest
from redis.asyncio import Redis
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.store._pipe import ReplyPipe
from server.store._wire import PackedConnection, closed_by_redis, packing_in_c


@pytest.fixture
async def open_pipe(redis_url: str) -> AsyncIterator[Any]:
    pipes: list[ReplyPipe] = []

    async def open_one(**options: Any) -> ReplyPipe:
        pipes.append(ReplyPipe.take_over(await _connected(redis_url, **options)))
        return pipes[-1]

    yield open_one
    for pipe in pipes:
        pipe.close()


async def _connected(redis_url: str, **options: Any) -> PackedConnection:
    url = urlparse(redis_url)
    make: Any = packing_in_c(Connection)  # typed as the abstract base, with no address
    conn = make(host=url.hostname, port=url.port, **options)
    assert isinstance(conn, PackedConnection)
    await conn.connect()  # type: ignore[no-untyped-call]
    return conn


def _key() -> str:
    return f"pipe-test:{uuid.uuid4().hex}"


async def test_a_batch_gets_every_reply_in_order_error_replies_as_redis_py_classes(
    open_pipe: Any,
) -> None:
    pipe = await open_pipe()
    key = _key()
    batch = [("SET", key, "x"), ("HSET", key, "f", "v"), ("EVALSHA", "ab" * 20, 0), ("GET", key)]
    first, wrong, unknown, last = await pipe.exchange(pipe.pack_batch(batch), len(batch))
    assert (first, last) == (b"OK", b"x")
    assert isinstance(wrong, ResponseError) and "WRONGTYPE" in str(wrong)
    assert isinstance(unknown, NoScriptError)
    assert await pipe.exchange(pipe.pack_batch([("DEL", key)]), 1) == [1]


async def test_batches_in_flight_together_are_answered_each_with_its_own_replies(
    open_pipe: Any,
) -> None:
    pipe = await open_pipe()
    key = _key()
    answers: list[list[Any] | Exception] = []
    for size in (3, 1, 2):
        pipe.send(pipe.pack_batch([("INCR", key)] * size), size, answers.append)
    await pipe.exchange(pipe.pack_batch([("DEL", key)]), 1)  # answered after all three
    assert answers == [[1, 2, 3], [4], [5, 6]]


async def test_a_lost_connection_fails_the_waiting_batch_and_every_later_one(
    open_pipe: Any, redis_url: str
) -> None:
    pipe = await open_pipe()
    [client_id] = await pipe.exchange(pipe.pack_batch([("CLIENT", "ID")]), 1)
    waiting = asyncio.ensure_future(pipe.exchange(pipe.pack_batch([("BLPOP", _key(), 0)]), 1))
    await asyncio.sleep(0)  # written: Redis blocks on it, and answers nothing
    async with Redis.from_url(redis_url) as other:
        await other.execute_command("CLIENT", "KILL", "ID", client_id)  # type: ignore[no-untyped-call]
    with pytest.raises(RedisConnectionError):
        await waiting
    assert not pipe.alive
    with pytest.raises(RedisConnectionError):
        pipe.send(pipe.pack_batch([("PING",)]), 1, lambda _: None)


async def test_a_batch_redis_does_not_answer_in_time_fails_and_closes_the_pipe(
    open_pipe: Any,
) -> None:
    pipe = await open_pipe(socket_timeout=0.1)
    blocking = [("BLPOP", _key(), 1)]
    with pytest.raises(RedisTimeoutError):
        await pipe.exchange(pipe.pack_batch(blocking), 1)
    assert not pipe.alive  # the late reply is never taken for another batch's


async def test_a_connection_redis_closed_as_it_opened_is_refused_and_closed(
    redis_url: str,
) -> None:
    conn = await _connected(redis_url)
    async with Redis.from_url(redis_url) as other:
        killed = await other.client_kill_filter(_id=str(await _client_id(conn)))
    assert killed == 1
    transport = conn._writer.transport if conn._writer else None
    async with asyncio.timeout(5):
        while not closed_by_redis(conn):
            await asyncio.sleep(0)  # the loop reads the end of Redis's side
    with pytest.raises(RedisConnectionError, match="closed as it opened"):
        ReplyPipe.take_over(conn)
    assert not conn.is_connected  # closed, not left open until collected
    assert transport is not None and transport.is_closing()


async def _client_id(conn: PackedConnection) -> int:
    await conn.send_command("CLIENT", "ID")
    reply: int = await conn.read_response()
    return reply
