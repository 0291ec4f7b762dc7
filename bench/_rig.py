"""A system under load: its server processes and the load generators driving them."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench._procs import LoadGen, Server, start_server
from bench._stats import percentile

SETTLE_S = 1.0
"""Pause before each saturated run, so frames still in flight from the last one drain first."""
SLICE_SETTLE_S = 0.1
"""Pause before each slice of a paced run: a slice ends only once every move it sent
was acknowledged, so only the last events to other players can still be in flight."""


@dataclass(frozen=True)
class Saturation:
    moves_per_s: float
    cpu_us_per_move: float


@dataclass(frozen=True)
class Slice:
    """One stretch of paced load on one system, as its processes reported it."""

    sent: int
    missed: int
    exhausted: int
    busy: int
    latencies_ms: list[float]
    cpu_s: float
    """Server CPU time used during the slice, all processes."""
    elapsed_s: float
    server_wait_s: float
    """Seconds each server process waited for a CPU during the slice (mean)."""
    load_wait_s: float
    processes: int = 1
    """Server processes the CPU time was spread over."""


@dataclass(frozen=True)
class Paced:
    sent: int
    missed: int
    exhausted: int
    busy: int
    p50_ms: float
    p99_ms: float
    moves_per_cpu_s: float
    server_wait: float
    """Share of the run each server process spent ready but waiting for a CPU (mean)."""
    load_wait: float
    """The same for the load generators: their waits count in every latency they measure."""
    server_busy: float
    """Share of the run each server process spent on a CPU (mean): how loaded the pace kept it."""

    @classmethod
    def of(cls, slices: Sequence[Slice]) -> Paced:
        """One paced run made of `slices`: latencies pooled, counts and times added."""
        latencies = [value for piece in slices for value in piece.latencies_ms]
        cpu = sum(piece.cpu_s for piece in slices)
        elapsed = sum(piece.elapsed_s for piece in slices)
        return cls(
            sent=sum(piece.sent for piece in slices),
            missed=sum(piece.missed for piece in slices),
            exhausted=sum(piece.exhausted for piece in slices),
            busy=sum(piece.busy for piece in slices),
            p50_ms=percentile(latencies, 0.50),
            p99_ms=percentile(latencies, 0.99),
            moves_per_cpu_s=len(latencies) / cpu if cpu else float("nan"),
            server_wait=sum(piece.server_wait_s for piece in slices) / elapsed,
            load_wait=sum(piece.load_wait_s for piece in slices) / elapsed,
            server_busy=sum(piece.cpu_s / piece.processes for piece in slices) / elapsed,
        )


class Rig:
    """Servers of one kind, and load generators whose rooms together fill them."""

    def __init__(self, servers: Sequence[Server], loads: Sequence[LoadGen]) -> None:
        self.servers, self.loads = list(servers), list(loads)
        self.bots = sum(load.wait_ready() for load in self.loads)

    @classmethod
    def start(
        cls,
        name: str,
        kind: str,
        redis_url: str,
        *,
        processes: int,
        rooms: range,
        players: int,
        loadgens: int = 1,
        cpu: int | None,
    ) -> Rig:
        prefix = f"bench{os.getpid()}:{name}:"
        servers: list[Server] = []
        loads: list[LoadGen] = []
        try:
            servers += [start_server(kind, redis_url, prefix, cpu) for _ in range(processes)]
            urls = [server.url for server in servers]
            share = -(-len(rooms) // loadgens)
            for at in range(0, len(rooms), share):
                loads.append(LoadGen(urls, kind, rooms[at : at + share], players))
            return cls(servers, loads)
        except BaseException:
            _stop(servers, loads)
            raise

    def kib_per_player(self) -> float:
        return sum(server.kib_since_start() for server in self.servers) / self.bots

    def cpu_seconds(self) -> float:
        return sum(server.cpu_seconds() for server in self.servers)

    def saturate(self, seconds: float) -> Saturation:
        time.sleep(SETTLE_S)
        cpu_before = self.cpu_seconds()
        replies = self._all(f"saturate {seconds}")
        moves = sum(reply["moves"] for reply in replies)
        elapsed = max(reply["seconds"] for reply in replies)
        cpu = self.cpu_seconds() - cpu_before
        return Saturation(moves / elapsed, cpu / max(moves, 1) * 1e6)

    def pace(self, rate: float, seconds: float) -> Slice:
        time.sleep(SLICE_SETTLE_S)
        cpu_before, waits_before = self.cpu_seconds(), self._waits()
        start = time.perf_counter()
        replies = self._all(f"pace {rate / len(self.loads)} {seconds}")
        elapsed = time.perf_counter() - start
        server_wait, load_wait = (
            after - before for after, before in zip(self._waits(), waits_before, strict=True)
        )
        return Slice(
            sent=sum(reply["sent"] for reply in replies),
            missed=sum(reply["missed"] for reply in replies),
            exhausted=sum(reply["exhausted"] for reply in replies),
            busy=sum(reply["busy"] for reply in replies),
            latencies_ms=[value for reply in replies for value in reply["latencies_ms"]],
            cpu_s=self.cpu_seconds() - cpu_before,
            elapsed_s=elapsed,
            server_wait_s=server_wait,
            load_wait_s=load_wait,
            processes=len(self.servers),
        )

    def _waits(self) -> tuple[float, float]:
        """Seconds waited for a CPU so far, per server process and per load generator."""
        servers = sum(server.cpu_wait_seconds() for server in self.servers)
        loads = sum(load.cpu_wait_seconds() for load in self.loads)
        return servers / len(self.servers), loads / len(self.loads)

    def _all(self, command: str) -> list[dict[str, Any]]:
        """Send `command` to every load generator at once, then read every reply."""
        for load in self.loads:
            load.send(command)
        return [load.reply() for load in self.loads]

    def stop(self) -> None:
        _stop(self.servers, self.loads)


def _stop(servers: Sequence[Server], loads: Sequence[LoadGen]) -> None:
    for load in loads:
        load.stop()
    for server in servers:
        server.stop()
