"""Processes of the server benchmark: servers, load generators, and what /proc says of them."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
ONE_ADDRESS = [
    "--max-connections", "100000", "--connection-rate", "100000",
    "--connection-burst", "100000", "--join-rate", "100000", "--join-burst", "100000",
]  # fmt: skip
"""Every bench player connects from 127.0.0.1: the limits per client address are lifted
(the per-connection request rate stays, it is part of a move's work)."""
NO_DEAD_END_CHECKS = ["--dead-end-after", "86400"]
"""No racer's dead-end check falls due during a run; the watch is still armed on every
move that brings a card home, as in any race. The bench's bots play random walks that
seldom bring a card home, and each rig idles for minutes while the others are measured,
so every bot would be checked about every 30 s: thousands of solver jobs a run, set by
the bench's schedule rather than by its load. Their worker processes are the servers'
children, so they would run uncounted on the servers' pinned core, and a rig with two
server processes has two of them."""


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) if match else 0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def cpu_wait_seconds(pid: int) -> float:
    """Time the process has spent ready to run but waiting for a CPU that other work held."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9


def read_until(stream: IO[str], pattern: str) -> re.Match[str]:
    for line in stream:
        if match := re.search(pattern, line):
            return match
    raise RuntimeError(f"process ended before printing {pattern!r}")


def _drain(stream: IO[str]) -> None:
    """Read a child's output to its end, so a chatty child never blocks on a full pipe."""
    threading.Thread(target=stream.read, daemon=True).start()


def start_server(kind: str, redis_url: str, prefix: str, cpu: int | None) -> Server:
    """A server of `kind` ("ideal" or "full") on a free port, pinned to `cpu` if given."""
    if kind == "ideal":
        command = ["-m", "bench.ideal_server", "--port", "0", "--redis", redis_url]
        command += ["--prefix", prefix]
        pattern = r"port (\d+)"
    else:
        command = ["-m", "server", "--port", "0", "--redis", redis_url, "--prefix", prefix]
        command += ONE_ADDRESS + NO_DEAD_END_CHECKS
        pattern = r"listening on ws://[\d.]+:(\d+)"
    process = subprocess.Popen(
        [sys.executable, *command], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdout is not None
    port = int(read_until(process.stdout, pattern).group(1))
    _drain(process.stdout)
    if cpu is not None:
        os.sched_setaffinity(process.pid, {cpu})
    return Server(process, f"ws://127.0.0.1:{port}")


class Server:
    def __init__(self, process: subprocess.Popen[str], url: str) -> None:
        self.process, self.url = process, url
        self.baseline_kib = rss_kib(process.pid)

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.process.pid)

    def cpu_wait_seconds(self) -> float:
        return cpu_wait_seconds(self.process.pid)

    def kib_since_start(self) -> int:
        return rss_kib(self.process.pid) - self.baseline_kib

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class LoadGen:
    """One `bench.loadgen` process: its bots, commands sent and replies read."""

    def __init__(self, urls: Sequence[str], driver: str, rooms: range, players: int) -> None:
        command = [sys.executable, "-m", "bench.loadgen", "--driver", driver]
        command += [arg for url in urls for arg in ("--url", url)]
        command += ["--rooms", str(len(rooms)), "--first-room", str(rooms.start)]
        command += ["--players", str(players)]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.bots = 0

    def cpu_wait_seconds(self) -> float:
        return cpu_wait_seconds(self.process.pid)

    def wait_ready(self) -> int:
        assert self.process.stdout is not None
        self.bots = int(read_until(self.process.stdout, r"ready (\d+)").group(1))
        return self.bots

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def reply(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        reply: dict[str, Any] = json.loads(read_until(self.process.stdout, r"^\{.*\}$").group(0))
        if "error" in reply:
            raise RuntimeError(reply["error"])
        return reply

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(BrokenPipeError):
                self.send("quit")
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
