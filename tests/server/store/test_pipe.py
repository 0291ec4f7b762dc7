"""The script runner's own connection: batches out, their replies parsed as they arrive."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import ConnectionPool, Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.store._pipe import ReplyPipe
from server.store._wire import pack_batch


@pytest.fixture
async def open_pipe(redis_url: str) -> AsyncIterator[Any]:
    pipes: list[ReplyPipe] = []

    async def open_one(**options: Any) -> ReplyPipe:
        pipes.append(await ReplyPipe.open(ConnectionPool.from_url(redis_url, **options)))
        return pipes[-1]

    yield open_one
    for pipe in pipes:
        pipe.close()


def _key() -> str:
    return f"pipe-test:{uuid.uuid4().hex}"


async def test_a_batch_gets_every_reply_in_order_error_replies_as_redis_py_classes(
    open_pipe: Any,
) -> None:
    pipe = await open_pipe()
    key = _key()
    batch = [("SET", key, "x"), ("HSET", key, "f", "v"), ("EVALSHA", "ab" * 20, 0), ("GET", key)]
    first, wrong, unknown, last = await pipe.exchange(pack_batch(batch), len(batch))
    assert (first, last) == (b"OK", b"x")
    assert isinstance(wrong, ResponseError) and "WRONGTYPE" in str(wrong)
    assert isinstance(unknown, NoScriptError)
    assert await pipe.exchange(pack_batch([("DEL", key)]), 1) == [1]


async def test_batches_in_flight_together_are_answered_each_with_its_own_replies(
    open_pipe: Any,
) -> None:
    pipe = await open_pipe()
    key = _key()
    answers: list[list[Any] | Exception] = []
    for size in (3, 1, 2):
        pipe.send(pack_batch([("INCR", key)] * size), size, answers.append)
    await pipe.exchange(pack_batch([("DEL", key)]), 1)  # answered after all three
    assert answers == [[1, 2, 3], [4], [5, 6]]


async def test_a_lost_connection_fails_the_waiting_batch_and_every_later_one(
    open_pipe: Any, redis_url: str
) -> None:
    pipe = await open_pipe()
    [client_id] = await pipe.exchange(pack_batch([("CLIENT", "ID")]), 1)
    waiting = asyncio.ensure_future(pipe.exchange(pack_batch([("BLPOP", _key(), 0)]), 1))
    await asyncio.sleep(0)  # written: Redis blocks on it, and answers nothing
    async with Redis.from_url(redis_url) as other:
        await other.execute_command("CLIENT", "KILL", "ID", client_id)  # type: ignore[no-untyped-call]
    with pytest.raises(RedisConnectionError):
        await waiting
    assert not pipe.alive
    with pytest.raises(RedisConnectionError):
        pipe.send(pack_batch([("PING",)]), 1, lambda _: None)


async def test_a_batch_redis_does_not_answer_in_time_fails_and_closes_the_pipe(
    open_pipe: Any,
) -> None:
    pipe = await open_pipe(socket_timeout=0.1)
    blocking = [("BLPOP", _key(), 1)]
    with pytest.raises(RedisTimeoutError):
        await pipe.exchange(pack_batch(blocking), 1)
    assert not pipe.alive  # the late reply is never taken for another batch's
