"""The store's own connections to Redis, opened through public APIs only.

The script runner's pipe (`server.store._pipe`) and the feed's pub/sub listener
(`server.store._pubsub`) read Redis's replies in an `asyncio.Protocol` callback
with a hiredis reader, because reading them through redis-py's stream reader costs
more CPU than the rest of a move's trip to Redis. redis-py has no public way to hand
over the transport of a connection it opened, so these connections are not
redis-py's: `open_link` opens the socket with asyncio, says who the client is
(AUTH, CLIENT SETNAME, SELECT, then a PING, in one write) and hands the transport
to the caller's protocol in the callback that read the last of those replies, so
nothing the connection sees afterwards can be missed.

What to connect to, and how, is still redis-py's: the settings are read from a
connection the store's pool (or, on a cluster, one node of redis-py's cluster
client, `LinkSettings`) would make (its documented constructor arguments, as
the URL set them): the address or the unix socket's path, TLS through redis-py's
own SSL context, the credentials (a credential provider too), the client name,
the database, the timeouts and TCP keepalive. These connections always speak
RESP2, whatever protocol the URL asks of redis-py's.

Error replies become redis-py's exception classes by the first word of the error,
as redis-py's parsers map them (`reply_error`); a test compares the two on every
code listed, so a redis-py release that maps one differently fails it.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, cast

import hiredis
from redis import exceptions as errors
from redis.asyncio import Connection, SSLConnection, UnixDomainSocketConnection
from redis.asyncio.connection import AbstractConnection
from redis.credentials import UsernamePasswordCredentialProvider

from server.store._wire import pack_batch

_CODES: dict[str, type[errors.RedisError]] = {
    "OOM": errors.OutOfMemoryError,
    "WRONGPASS": errors.AuthenticationError,
    "EXECABORT": errors.ExecAbortError,
    "LOADING": errors.BusyLoadingError,
    "NOSCRIPT": errors.NoScriptError,
    "READONLY": errors.ReadOnlyError,
    "NOAUTH": errors.AuthenticationError,
    "NOPERM": errors.NoPermissionError,
    "ASK": errors.AskError,
    "TRYAGAIN": errors.TryAgainError,
    "MOVED": errors.MovedError,
    "CLUSTERDOWN": errors.ClusterDownError,
    "CROSSSLOT": errors.ClusterCrossSlotError,
    "MASTERDOWN": errors.MasterDownError,
}
"""Error codes and the redis-py class of each (the message follows the code)."""
ERR_MESSAGES: dict[str, type[errors.RedisError]] = {
    "max number of clients reached": errors.ConnectionError,
    "invalid password": errors.AuthenticationError,
    "Client sent AUTH, but no password is set": errors.AuthenticationError,
    "AUTH <password> called without any password configured for the default user. "
    "Are you sure your configuration is correct?": errors.AuthenticationError,
}
"""``ERR`` replies with a class of their own; any other is a `ResponseError`."""
CODES = tuple(_CODES)


def reply_error(text: str) -> Exception:
    """The redis-py exception for the error reply `text` (hiredis's `replyError`)."""
    code, _, message = text.partition(" ")
    if code == "ERR":
        return ERR_MESSAGES.get(message, errors.ResponseError)(message)
    kind = _CODES.get(code)
    return errors.ResponseError(text) if kind is None else kind(message)


def new_reader() -> hiredis.Reader:
    """A RESP2 reader whose error replies are redis-py's exceptions (`reply_error`)."""
    return hiredis.Reader(replyError=reply_error)


class LinkSettings(Protocol):
    """Where connections' settings come from: redis-py's `ConnectionPool`, or a
    `ClusterNode` of its cluster client (both make connections this way)."""

    @property
    def connection_class(self) -> type[AbstractConnection]: ...

    @property
    def connection_kwargs(self) -> Mapping[str, Any]: ...


def settings(pool: LinkSettings) -> AbstractConnection:
    """A connection `pool` would make, never connected: its attributes are the settings."""
    return pool.connection_class(**pool.connection_kwargs)


async def open_link(pool: LinkSettings, protocol: asyncio.Protocol) -> None:
    """Connect to `pool`'s Redis and greet it; then `protocol` has the transport (its
    `connection_made` was called) and no reply is pending. Raises redis-py's
    `ConnectionError` or `TimeoutError` (the connect timeout, then the socket timeout
    for the greeting), or the greeting's error reply (`AuthenticationError`, ...)."""
    conn = settings(pool)
    greeting = _Greeting(await _greeting(conn), protocol)
    try:
        async with asyncio.timeout(conn.socket_connect_timeout):
            await _connect(conn, lambda: greeting)
    except TimeoutError:
        greeting.close()
        raise errors.TimeoutError(f"timed out connecting to Redis at {_where(conn)}") from None
    except OSError as error:
        greeting.close()
        raise errors.ConnectionError(
            f"cannot connect to Redis at {_where(conn)}: {error}"
        ) from error
    try:
        async with asyncio.timeout(conn.socket_timeout):
            await greeting.done
    except TimeoutError:
        greeting.close()
        raise errors.TimeoutError("Redis did not answer the greeting in time") from None
    except BaseException:
        greeting.close()
        raise


async def _greeting(conn: AbstractConnection) -> list[tuple[str | bytes | int, ...]]:
    commands: list[tuple[str | bytes | int, ...]] = []
    provider = conn.credential_provider
    if provider is None and (conn.username or conn.password):
        provider = UsernamePasswordCredentialProvider(conn.username, conn.password)
    if provider is not None:
        commands.append(("AUTH", *await provider.get_credentials_async()))
    if conn.client_name:
        commands.append(("CLIENT", "SETNAME", conn.client_name))
    if conn.db:
        commands.append(("SELECT", conn.db))
    commands.append(("PING",))
    return commands


async def _connect(conn: AbstractConnection, factory: Callable[[], asyncio.Protocol]) -> None:
    loop = asyncio.get_running_loop()
    if isinstance(conn, UnixDomainSocketConnection):
        await loop.create_unix_connection(factory, conn.path)
        return
    if not isinstance(conn, Connection):
        raise TypeError(f"the store cannot open connections like {type(conn).__name__}")
    tls = conn.ssl_context.get() if isinstance(conn, SSLConnection) else None
    transport, _ = await loop.create_connection(factory, conn.host, conn.port, ssl=tls)
    try:
        _tune(transport.get_extra_info("socket"), conn)
    except (OSError, TypeError):
        transport.close()
        raise


def _tune(sock: Any, conn: Connection) -> None:
    """TCP options as redis-py sets them on its own connections."""
    if sock is None:
        return
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if conn.socket_keepalive:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        options = conn.socket_keepalive_options
        for option, value in options.items() if isinstance(options, Mapping) else ():
            sock.setsockopt(socket.SOL_TCP, option, value)


def _where(conn: AbstractConnection) -> str:
    if isinstance(conn, UnixDomainSocketConnection):
        return conn.path
    return f"{conn.host}:{conn.port}" if isinstance(conn, Connection) else type(conn).__name__


class _Greeting(asyncio.Protocol):
    """Writes the greeting, reads its replies, then gives the transport to `then`."""

    def __init__(self, commands: Sequence[tuple[str | bytes | int, ...]], then: asyncio.Protocol):
        self._packed = b"".join(pack_batch(commands))
        self._count = len(commands)
        self._replies: list[Any] = []
        self._reader = new_reader()
        self._then = then
        self._transport: asyncio.BaseTransport | None = None
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()
        self.done.cancel()  # no-op once answered

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport
        cast(asyncio.WriteTransport, transport).write(self._packed)

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        while (reply := self._reader.gets()) is not False:
            self._replies.append(reply)
        if self.done.done() or len(self._replies) < self._count:
            return
        expected = [*[b"OK"] * (self._count - 1), b"PONG"]
        if error := self._refusal():
            self.done.set_exception(error)
        elif self._replies != expected or self._reader.has_data():
            text = f"Redis answered the greeting with {self._replies}"
            self.done.set_exception(errors.ConnectionError(text))
        else:
            assert self._transport is not None
            self._transport.set_protocol(self._then)
            self._then.connection_made(self._transport)
            self.done.set_result(None)

    def eof_received(self) -> bool:
        return False  # `connection_lost` follows

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            lost = errors.ConnectionError(f"Redis closed the connection as it opened: {exc}")
            self.done.set_exception(self._refusal() or lost)

    def _refusal(self) -> Exception | None:
        """The first error reply of the greeting, or None."""
        return next((reply for reply in self._replies if isinstance(reply, Exception)), None)
