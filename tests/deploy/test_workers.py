"""``solrace-server --workers 2``: two processes on one port race together, and stop together.

Which worker holds a connection is read from the kernel's socket tables
(/proc/net/tcp and each worker's open files), so the test seats one racer on each.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from functools import partial
from pathlib import Path

from tests.deploy._processes import (
    Processes,
    Running,
    alive,
    free_port,
    healthy,
    server_command,
    wait_until,
)
from tests.deploy._racer import check_results
from tests.deploy.conftest import Clients
from tests.server._client import Client

_LISTEN = "0A"


def _sockets(port: int) -> list[tuple[int, str, int]]:
    """(remote port, state, inode) of each TCP socket whose local port is `port`."""
    found = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state, inode = fields[1], fields[2], fields[3], int(fields[9])
        if int(local.split(":")[1], 16) == port:
            found.append((int(remote.split(":")[1], 16), state, inode))
    return found


def _holds(pid: int, inode: int) -> bool:
    """Whether process `pid` has the socket `inode` open."""
    target = f"socket:[{inode}]"
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            if os.readlink(fd) == target:
                return True
    return False


def _workers(parent: int) -> list[int]:
    """The parent's children that run the server (not its Valkey)."""
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    return [int(pid) for pid in children if b"server" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def _listening(pids: list[int], port: int) -> bool:
    """Whether each of `pids` has a socket of its own listening on `port`."""
    inodes = [inode for _, state, inode in _sockets(port) if state == _LISTEN]
    return len(pids) == 2 and all(any(_holds(pid, i) for i in inodes) for pid in pids)


def _holder(pids: list[int], client: Client, port: int) -> int:
    """The worker holding the server side of `client`'s connection."""
    mine = client.conn.local_address[1]
    [inode] = [inode for remote, _, inode in _sockets(port) if remote == mine]
    [pid] = [pid for pid in pids if _holds(pid, inode)]
    return pid


async def _start_workers(procs: Processes, port: int, data: Path) -> tuple[Running, list[int]]:
    """``solrace-server --workers 2``; returns once both workers listen. (parent, worker pids)"""
    parent = procs.start("workers", server_command(port, "--workers", "2", "--data-dir", str(data)))
    workers: list[int] = []

    def both_listening() -> bool:
        workers[:] = _workers(parent.pid)
        return _listening(workers, port)

    await asyncio.to_thread(procs.check_running, parent, both_listening, "two workers")
    return parent, workers


async def test_two_workers_share_a_port_and_one_race(
    procs: Processes, clients: Clients, tmp_path: Path
) -> None:
    port = free_port()
    parent, workers = await _start_workers(procs, port, tmp_path / "data")
    by_worker: dict[int, Client] = {}
    for _ in range(40):
        client = await clients.open(port)
        by_worker.setdefault(_holder(workers, client, port), client)
        if len(by_worker) == 2:
            break
    assert len(by_worker) == 2, "40 connections all reached one worker"
    ann, bob = await clients.seat_clients(list(by_worker.values()))
    await ann.move("a0")
    await bob.wait_event_of(ann)
    await bob.move("b0")
    await ann.wait_event_of(bob)
    await check_results([ann, bob])

    assert await asyncio.to_thread(parent.terminate) == 0
    assert not any(alive(pid) for pid in workers)
    assert procs.leftovers() == [], "the embedded Valkey should stop with the parent"


async def test_workers_stop_when_their_parent_is_killed(
    procs: Processes, clients: Clients, tmp_path: Path
) -> None:
    """The port is left free: a server without SO_REUSEPORT can take it, and stops the Valkey."""
    port, data = free_port(), tmp_path / "data"
    parent, workers = await _start_workers(procs, port, data)
    [ann] = await clients.seat([port])
    await ann.move("a0")
    orphan = int((data / "valkey.pid").read_text())

    await asyncio.to_thread(parent.kill)
    gone = partial(lambda pids: not any(alive(pid) for pid in pids), workers)
    await asyncio.to_thread(wait_until, gone, "the workers to stop")
    assert alive(orphan), "the Valkey of a parent killed outright is left running"
    server = procs.start("server", server_command(port, "--data-dir", str(data)))
    await asyncio.to_thread(procs.check_running, server, partial(healthy, port), "a server")
    assert not alive(orphan)
    await ann.resume(f"ws://127.0.0.1:{port}")
    await ann.move("a1")
    await check_results([ann])


async def test_a_worker_that_dies_stops_the_set_with_a_failure(
    procs: Processes, tmp_path: Path
) -> None:
    """The parent stops the other worker and its Valkey and exits 1, for a supervisor to act on."""
    parent, workers = await _start_workers(procs, free_port(), tmp_path / "data")
    os.kill(workers[0], signal.SIGKILL)
    assert await asyncio.to_thread(parent.popen.wait, 30) == 1
    assert procs.leftovers() == []
