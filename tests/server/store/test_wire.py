import uuid
from typing import Any
from urllib.parse import urlparse

import pytest
from redis.asyncio.connection import AbstractConnection, Connection, UnixDomainSocketConnection
from redis.exceptions import DataError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.store._wire import PackedConnection, packing_in_c


def packed(base: type[AbstractConnection], *args: object) -> bytes:
    return b"".join(base().pack_command(*args))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "args",
    [
        ("EVALSHA", "ab12", 2, "k1", b"k2", b"\x00\xff state", -7, "caf\u00e9"),
        ("SCRIPT LOAD", "return 1"),
        ("SET", "k", 1.5),
    ],
)
def test_packs_the_bytes_redis_py_packs(args: tuple[object, ...]) -> None:
    assert packed(packing_in_c(Connection), *args) == packed(Connection, *args)


def test_keeps_the_connection_kind_redis_py_picked() -> None:
    assert issubclass(packing_in_c(UnixDomainSocketConnection), UnixDomainSocketConnection)


def test_an_argument_redis_cannot_take_is_refused_as_redis_py_refuses_it() -> None:
    with pytest.raises(DataError):
        packing_in_c(Connection)().pack_command("SET", "k", True)


def test_a_batch_is_packed_to_the_bytes_redis_py_writes() -> None:
    conn = packing_in_c(Connection)()
    assert isinstance(conn, PackedConnection)
    commands: list[tuple[Any, ...]] = [
        ("EVALSHA", "ab" * 20, 2, "k1", "k2", b"\x00\xff", 12, "t\u00e9xt", 1.5),
        ("SCRIPT LOAD", "return 1"),
    ]
    plain = Connection().pack_commands(commands)
    assert b"".join(conn.pack_batch(commands)) == b"".join(plain)


async def test_an_exchange_returns_every_reply_in_order_error_replies_too(redis_url: str) -> None:
    key = f"wire-test:{uuid.uuid4().hex}"
    conn = _connection(redis_url)
    try:
        commands = [("SET", key, "x"), ("HSET", key, "f", "v"), ("GET", key)]
        first, refused, last = await conn.exchange(conn.pack_batch(commands), 3)
        assert (first, last) == (b"OK", b"x")
        assert isinstance(refused, ResponseError) and "WRONGTYPE" in str(refused)
        assert await conn.exchange(conn.pack_batch([("DEL", key)]), 1) == [1]
    finally:
        await conn.disconnect()


async def test_an_exchange_redis_does_not_answer_in_time_fails_and_closes(redis_url: str) -> None:
    conn = _connection(redis_url, socket_timeout=0.1)
    blocking = [("BLPOP", f"wire-test:{uuid.uuid4().hex}", 1)]
    with pytest.raises(RedisTimeoutError):
        await conn.exchange(conn.pack_batch(blocking), 1)
    assert not conn.is_connected  # the late reply is never read as another command's


def _connection(redis_url: str, **options: Any) -> PackedConnection:
    url = urlparse(redis_url)
    make: Any = packing_in_c(Connection)  # typed as the abstract base, which takes no address
    conn = make(host=url.hostname, port=url.port, **options)
    assert isinstance(conn, PackedConnection)
    return conn
