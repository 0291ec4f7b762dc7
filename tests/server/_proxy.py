"""A TCP proxy between one server process and Redis, to cut that process off and let it back.

While cut, every connection through the proxy is closed and new ones are closed as
soon as they open: the process behind it cannot reach Redis (its pub/sub connection
is gone, so Redis drops its subscriptions), while other processes still do.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit, urlunsplit

_CHUNK = 65536


class RedisProxy:
    def __init__(self, redis_url: str) -> None:
        self.redis_url = redis_url
        target = urlsplit(redis_url)
        self.host, self.port = target.hostname or "127.0.0.1", target.port or 6379
        self.open = True
        self.links: set[asyncio.StreamWriter] = set()
        """Both ends of every connection through the proxy."""
        self.handlers: set[asyncio.Task[None]] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        """Listen on a free port; the URL of Redis through the proxy."""
        self.server = await asyncio.start_server(self._connected, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return urlunsplit(urlsplit(self.redis_url)._replace(netloc=f"127.0.0.1:{port}"))

    async def cut(self) -> None:
        """Close every connection through the proxy; close new ones until `mend`."""
        self.open = False
        links, self.links = [*self.links], set()
        await asyncio.gather(*(_closed(writer) for writer in links))

    def mend(self) -> None:
        self.open = True

    async def close(self) -> None:
        await self.cut()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        await asyncio.gather(*self.handlers)

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        task.add_done_callback(self.handlers.discard)
        if not self.open:
            await _closed(writer)
            return
        upstream_reader, upstream_writer = await asyncio.open_connection(self.host, self.port)
        self.links |= {writer, upstream_writer}
        await asyncio.gather(_pump(reader, upstream_writer), _pump(upstream_reader, writer))
        self.links -= {writer, upstream_writer}
        await asyncio.gather(_closed(writer), _closed(upstream_writer))


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until the reading side ends; a side that fails ends the copy quietly."""
    with contextlib.suppress(OSError):
        while data := await reader.read(_CHUNK):
            writer.write(data)
            await writer.drain()
        if not writer.is_closing():
            writer.write_eof()


async def _closed(writer: asyncio.StreamWriter) -> None:
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
