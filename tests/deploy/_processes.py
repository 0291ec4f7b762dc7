"""Real processes for the deployment tests: start them, wait on conditions, stop them by pid.

Every process starts in a session of its own, so its process group id is its pid;
`Processes.stop_all` signals each group, which also reaches what a process started
itself (the embedded Valkey of a ``solrace-server``), even after the process was killed.
Waits are bounded polls on a condition, never fixed sleeps.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEADLINE_S = 30.0


LOWEST_PORT = 10_000
EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def free_ports(count: int) -> list[int]:
    """`count` distinct ports that were free on 127.0.0.1 a moment ago.

    They are picked below the kernel's ephemeral range where it is known: the
    port of any outgoing connection comes from that range, so none can take one
    of these between this check and the process that binds it.
    """
    below = _ephemeral_start()
    if below is None or below - LOWEST_PORT < 1000:
        return _ports_the_kernel_picks(count)
    found: list[int] = []
    while len(found) < count:
        port = random.randrange(LOWEST_PORT, below)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        if port not in found:
            found.append(port)
    return found


def _ephemeral_start() -> int | None:
    try:
        return int(EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _ports_the_kernel_picks(count: int) -> list[int]:
    with contextlib.ExitStack() as stack:
        probes = [stack.enter_context(socket.socket()) for _ in range(count)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]


def free_port() -> int:
    [port] = free_ports(1)
    return port


def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = DEADLINE_S) -> None:
    """Poll `condition` until it holds; fail naming `what` when `timeout_s` runs out."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:.0f}s waiting for {what}")
        time.sleep(0.02)


def answers(port: int) -> bool:
    """Whether something accepts TCP connections on 127.0.0.1:`port`."""
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
        return True
    return False


def healthy(port: int) -> bool:
    """Whether ``/healthz`` on 127.0.0.1:`port` answers 200."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def alive(pid: int) -> bool:
    """Whether the process exists and has not exited (a zombie has exited)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def require(program: str) -> str:
    """The path of `program`, or skip the test saying what is missing."""
    path = shutil.which(program)
    if path is None:
        pytest.skip(f"{program} is not installed (apt-get install {_PACKAGES[program]})")
    return path


_PACKAGES = {"haproxy": "haproxy", "redis-server": "redis-server", "redis-cli": "redis-tools"}


@dataclass
class Running:
    """One started process; its output goes to `log`."""

    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.popen.pid

    def kill(self) -> None:
        """SIGKILL, as a crash would; what it started itself keeps running."""
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(DEADLINE_S)

    def terminate(self, timeout_s: float = DEADLINE_S) -> int:
        """SIGTERM and wait for the exit; its exit status."""
        self.popen.send_signal(signal.SIGTERM)
        return self.popen.wait(timeout_s)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@dataclass
class Processes:
    """Starts processes for one test and stops every one of them at the end."""

    directory: Path
    started: list[Running] = field(default_factory=list)

    def start(
        self, name: str, command: Sequence[str], env: dict[str, str] | None = None
    ) -> Running:
        log = self.directory / f"{name}-{len(self.started)}.log"
        with log.open("wb") as out:
            popen = subprocess.Popen(
                list(command),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=REPO,
                env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
                start_new_session=True,
            )
        running = Running(name, popen, log)
        self.started.append(running)
        return running

    def check_running(self, running: Running, condition: Callable[[], bool], what: str) -> None:
        """Wait for `condition`; fail with the process's output if it exits first."""

        def ready() -> bool:
            if running.popen.poll() is not None:
                raise AssertionError(
                    f"{running.name} exited ({running.popen.returncode}):\n" + running.output()
                )
            return condition()

        wait_until(ready, what)

    def stop_all(self) -> None:
        """SIGTERM every process group, then SIGKILL what is left after a grace period."""
        for running in reversed(self.started):
            _signal_group(running.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for running in self.started:
            with contextlib.suppress(subprocess.TimeoutExpired):
                running.popen.wait(max(0.0, deadline - time.monotonic()))
        for running in self.started:
            _signal_group(running.pid, signal.SIGKILL)
            running.popen.wait(DEADLINE_S)
        wait_until(lambda: not self.leftovers(), "every started process to be gone")

    def leftovers(self) -> list[int]:
        """Live processes in the groups of the started processes (what they started included)."""
        return group_members([running.pid for running in self.started])


def _signal_group(pgid: int, signum: signal.Signals) -> None:
    """Signal the group if it still has a member (then its id cannot have been reused)."""
    if group_members([pgid]):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signum)


@contextlib.contextmanager
def processes(directory: Path) -> Iterator[Processes]:
    group = Processes(directory)
    try:
        yield group
    finally:
        group.stop_all()


def server_command(port: int, *options: str) -> list[str]:
    """``solrace-server`` on 127.0.0.1:`port`, run by this interpreter."""
    return [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port), *options]


@dataclass
class RedisServer:
    """A ``redis-server`` with the append-only file on, restartable on its own directory."""

    group: Processes
    port: int
    directory: Path
    running: Running | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            require("redis-server"), "--bind", "127.0.0.1", "--port", str(self.port),
            "--dir", str(self.directory), "--appendonly", "yes", "--appendfsync", "everysec",
            "--save", "", "--daemonize", "no",
        ]  # fmt: skip
        self.running = self.group.start("redis", command)
        self.group.check_running(self.running, self._pong, f"redis-server on port {self.port}")

    def kill(self) -> None:
        assert self.running is not None
        self.running.kill()

    def _pong(self) -> bool:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", self.port), 1) as s,
        ):
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
        return False


def group_members(pgids: Sequence[int]) -> list[int]:
    """Pids of live processes in any of the process groups `pgids`."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and alive(int(entry.name)):
            with contextlib.suppress(OSError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) in pgids:
                    members.append(int(entry.name))
    return members
