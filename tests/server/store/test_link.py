"""The store's own connections: redis-py's settings, the greeting, redis-py's error classes."""

from __future__ import annotations

import asyncio
import socket
import ssl
import uuid
from collections.abc import Mapping
from typing import Any

import pytest
from redis import exceptions as errors
from redis.asyncio import ConnectionPool, Redis, SSLConnection, UnixDomainSocketConnection
from redis.asyncio.connection import Connection

from server.ops.embedded import EmbeddedValkey
from server.store._link import CODES, ERR_MESSAGES, open_link, reply_error, settings
from server.store._pipe import ReplyPipe
from server.store._wire import pack_batch

_RETURN_ERROR = "return redis.error_reply(ARGV[1])"


def _error_texts() -> list[str]:
    coded = [f"{code} 3999 127.0.0.1:6381" for code in CODES]  # MOVED and ASK read a slot
    return [*coded, *(f"ERR {message}" for message in ERR_MESSAGES), "ERR other", "ODD thing"]


@pytest.mark.parametrize("text", _error_texts())
async def test_an_error_reply_is_the_exception_redis_py_raises_for_it(
    redis_url: str, text: str
) -> None:
    """If this fails, redis-py maps the error differently: update `_link`'s tables."""
    async with Redis.from_url(redis_url) as client:
        with pytest.raises(errors.RedisError) as raised:
            await client.eval(_RETURN_ERROR, 0, text)
    mine = reply_error(text)
    assert (type(mine), str(mine)) == (type(raised.value), str(raised.value))


async def test_the_pipe_gets_error_replies_as_redis_py_classes(redis_url: str) -> None:
    pipe = await ReplyPipe.open(ConnectionPool.from_url(redis_url))
    try:
        [reply] = await pipe.exchange(pack_batch([("EVAL", _RETURN_ERROR, 0, "READONLY no")]), 1)
    finally:
        pipe.close()
    assert isinstance(reply, errors.ReadOnlyError) and str(reply) == "no"


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        (
            "redis://me:pw@example.org:6390/3?client_name=solrace&socket_timeout=2&socket_keepalive=1",
            Connection,
        ),
        ("rediss://example.org:6390/0?ssl_cert_reqs=none&socket_keepalive=1", SSLConnection),
        ("unix:///run/redis.sock?db=2", UnixDomainSocketConnection),
    ],
)
def test_redis_py_keeps_the_settings_the_store_reads_from_its_pool(url: str, kind: Any) -> None:
    """If this fails, redis-py renamed a connection setting `_link` reads: follow it."""
    conn: Any = settings(ConnectionPool.from_url(url, socket_connect_timeout=4))
    assert type(conn) is kind
    assert conn.credential_provider is None and conn.socket_connect_timeout == 4
    if kind is UnixDomainSocketConnection:
        assert (conn.path, conn.db) == ("/run/redis.sock", 2)
        return
    assert (conn.host, conn.port, conn.socket_keepalive) == ("example.org", 6390, True)
    assert isinstance(conn.socket_keepalive_options, Mapping)
    if kind is SSLConnection:
        assert isinstance(conn.ssl_context.get(), ssl.SSLContext)
        assert conn.ssl_context.get().verify_mode is ssl.CERT_NONE
    else:
        assert (conn.username, conn.password, conn.db) == ("me", "pw", 3)
        assert (conn.client_name, conn.socket_timeout) == ("solrace", 2)


async def test_a_password_a_database_and_a_name_from_the_url_are_used(
    private_valkey: EmbeddedValkey,
) -> None:
    async with Redis.from_url(private_valkey.url) as admin:
        await admin.config_set("requirepass", "s3cret")
    url = private_valkey.url.replace("redis://", "redis://:s3cret@").replace("/0", "/2")
    key = f"link-test:{uuid.uuid4().hex}"
    pipe = await ReplyPipe.open(ConnectionPool.from_url(f"{url}?client_name=racer"))
    try:
        commands = [("SET", key, "x"), ("CLIENT", "GETNAME")]
        assert await pipe.exchange(pack_batch(commands), 2) == [b"OK", b"racer"]
    finally:
        pipe.close()
    async with Redis.from_url(url) as db2:
        assert await db2.get(key) == b"x"
    with pytest.raises(errors.AuthenticationError):
        await ReplyPipe.open(ConnectionPool.from_url(url.replace("s3cret", "wrong")))


async def test_a_connection_redis_refuses_as_it_opens_fails_and_is_closed(
    private_valkey: EmbeddedValkey,
) -> None:
    async with Redis.from_url(private_valkey.url) as admin:
        await admin.ping()
        await admin.config_set("maxclients", 1)  # the admin's connection is the one
        lost: list[Exception | None] = []
        protocol = _Recorder(lost)
        with pytest.raises(errors.ConnectionError, match="max number of clients"):
            await open_link(ConnectionPool.from_url(private_valkey.url), protocol)
        await admin.config_set("maxclients", 100)
    assert not protocol.made and lost == []


async def test_nothing_listening_is_a_connection_error() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
        with pytest.raises(errors.ConnectionError, match="cannot connect"):
            await open_link(ConnectionPool.from_url(f"redis://127.0.0.1:{port}"), _Recorder([]))


async def test_redis_closing_the_link_reaches_the_protocol_it_was_handed_to(
    redis_url: str,
) -> None:
    lost: list[Exception | None] = []
    protocol = _Recorder(lost)
    await open_link(ConnectionPool.from_url(redis_url, client_name="link-test-kill"), protocol)
    assert protocol.made
    async with Redis.from_url(redis_url) as admin:
        clients = await admin.client_list()
        [mine] = [c["id"] for c in clients if c["name"] == "link-test-kill"]
        assert await admin.client_kill_filter(_id=mine) == 1
    async with asyncio.timeout(5):
        await protocol.gone
    assert lost == [None]


class _Recorder(asyncio.Protocol):
    def __init__(self, lost: list[Exception | None]) -> None:
        self.lost, self.made = lost, False
        self.gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.made = True

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost.append(exc)
        self.gone.set_result(None)
