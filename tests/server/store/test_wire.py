from typing import Any

import pytest
from redis.asyncio.connection import AbstractConnection, Connection, UnixDomainSocketConnection
from redis.exceptions import DataError

from server.store._wire import pack_batch, packing_in_c


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
    commands: list[tuple[Any, ...]] = [
        ("EVALSHA", "ab" * 20, 2, "k1", "k2", b"\x00\xff", 12, "t\u00e9xt", 1.5),
        ("SCRIPT LOAD", "return 1"),
    ]
    plain = Connection().pack_commands(commands)
    assert b"".join(pack_batch(commands)) == b"".join(plain)
