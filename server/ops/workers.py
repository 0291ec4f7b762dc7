"""Several server processes on one port, for a host with several cores.

Theory of operation: the parent serves no sockets. It starts the embedded Valkey
once (unless ``--redis`` names a Redis), then runs `Config.workers` copies of
``solrace-server`` with the same arguments plus ``--redis URL --reuse-port
--workers 1``. Each worker listens on the same port with SO_REUSEPORT, so the
kernel spreads new connections over them; rooms are shared through Redis as
between any two server processes. SIGTERM, SIGINT and SIGHUP are passed on to every
worker, and the parent waits for all of them to drain before it stops the
embedded Valkey. A worker that exits on its own stops the others too, and the
parent exits with a failure, so a supervisor (systemd ``Restart=on-failure``)
starts the whole set again.

A parent killed outright cannot pass anything on, so each worker holds the read
end of a pipe whose write end only the parent holds (its number is in
``SOLRACE_PARENT_FD``): when the parent is gone the pipe reads end-of-file, and
the worker stops as on SIGTERM. The next start then finds the port free of
stale workers, and stops the Valkey the killed parent left behind.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from asyncio.subprocess import Process
from collections.abc import Callable
from contextlib import AsyncExitStack

from server.config import Config
from server.ops.embedded import EmbeddedValkey

__all__ = ["run_workers", "stop_with_parent"]

_log = logging.getLogger("solrace")
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
"""Each stops a server process cleanly (drain, then its embedded Valkey): SIGHUP too, so
closing the terminal a server runs in does not leave its Valkey running without it."""
_PARENT_FD = "SOLRACE_PARENT_FD"


async def run_workers(config: Config, argv: list[str]) -> int:
    """Run the workers until a signal stops them; the exit status for the parent."""
    async with AsyncExitStack() as stack:
        url = config.redis_url
        if url is None:
            valkey = await stack.enter_async_context(EmbeddedValkey(config.data_dir))
            url = valkey.url
        command = [sys.executable, "-m", "server", *argv]
        command += ["--redis", url, "--reuse-port", "--workers", "1"]
        workers = await _start(command, config.workers)
        _log.info("%d workers on port %d: pids %s", len(workers), config.port, _pids(workers))
        return await _supervise(workers)


async def _start(command: list[str], count: int) -> list[Process]:
    """Start the workers, each holding the read end of the parent's pipe.

    The write end stays open in this process alone until it exits.
    """
    read_end, _write_end = os.pipe()  # the write end closes when this process exits
    env = {**os.environ, _PARENT_FD: str(read_end)}
    try:
        return [
            await asyncio.create_subprocess_exec(*command, pass_fds=(read_end,), env=env)
            for _ in range(count)
        ]
    finally:
        os.close(read_end)


def stop_with_parent(stop: Callable[[], None]) -> None:
    """In a worker, call `stop` once the parent process is gone (see the module doc)."""
    fd = os.environ.pop(_PARENT_FD, None)
    if fd is None:
        return
    loop = asyncio.get_running_loop()

    def parent_gone() -> None:
        loop.remove_reader(int(fd))
        _log.warning("the parent process is gone; stopping")
        stop()

    loop.add_reader(int(fd), parent_gone)


async def _supervise(workers: list[Process]) -> int:
    stopping = False

    def forward(signum: signal.Signals) -> None:
        nonlocal stopping
        stopping = True
        for worker in workers:
            if worker.returncode is None:
                worker.send_signal(signum)

    loop = asyncio.get_running_loop()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, forward, signum)
    waits = [asyncio.ensure_future(worker.wait()) for worker in workers]
    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    failed = not stopping
    if failed:
        _log.error("a worker exited on its own (pids %s); stopping the others", _pids(workers))
        forward(signal.SIGTERM)
    codes = await asyncio.gather(*waits)
    for signum in STOP_SIGNALS:
        loop.remove_signal_handler(signum)
    return 1 if failed or any(codes) else 0


def _pids(workers: list[Process]) -> str:
    return ", ".join(str(worker.pid) for worker in workers)
