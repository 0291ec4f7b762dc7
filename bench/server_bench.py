"""The race server under load, next to the ideal path on the same machine.

250 rooms x 4 bot players connect over loopback to one server process; the
load generator runs in a process of its own (`bench.loadgen`). Figures:
validated moves per second at saturation, server CPU per move, acknowledgement
latency p50/p99 at a paced 1,000 moves/s, and server memory per connected
player. The same run of the ideal path (`bench.ideal_server`: websockets,
msgpack, one Redis round trip, ack and broadcast, no engine) shows what the
full server costs on top of the least this stack can do.

Run: python -m bench.server_bench [--rooms N] [--saturate S] [--paced S]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from server.embedded import EmbeddedValkey

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
CPUS = sorted(os.sched_getaffinity(0))
PINNED = len(CPUS) >= 2
"""With two cores or more, the server gets a core to itself; Redis and the load
generator share another, so runs do not depend on where the scheduler puts them."""
SERVER_CPU, LOAD_CPU = (CPUS[0], CPUS[1]) if PINNED else (0, 0)


@dataclass
class Figures:
    moves_per_s: float
    cpu_us_per_move: float
    p50_ms: float
    p99_ms: float
    kib_per_player: float


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) if match else 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def read_until(stream: IO[str], pattern: str) -> re.Match[str]:
    for line in stream:
        if match := re.search(pattern, line):
            return match
    raise RuntimeError(f"process ended before printing {pattern!r}")


def start_server(kind: str, redis_url: str) -> tuple[subprocess.Popen[str], int]:
    if kind == "ideal":
        command = ["-m", "bench.ideal_server", "--port", "0", "--redis", redis_url]
        pattern = r"port (\d+)"
    else:
        prefix = f"bench{os.getpid()}:"
        command = ["-m", "server", "--port", "0", "--redis", redis_url, "--prefix", prefix]
        pattern = r"listening on ws://[\d.]+:(\d+)"
    server = subprocess.Popen(
        [sys.executable, *command], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert server.stdout is not None
    port = int(read_until(server.stdout, pattern).group(1))
    if PINNED:
        os.sched_setaffinity(server.pid, {SERVER_CPU})
    return server, port


def measure(kind: str, redis_url: str, args: argparse.Namespace) -> Figures:
    server, port = start_server(kind, redis_url)
    try:
        baseline = rss_kib(server.pid)
        load = subprocess.Popen(
            [
                sys.executable, "-m", "bench.loadgen",
                "--url", f"ws://127.0.0.1:{port}", "--driver", "full" if kind == "full" else kind,
                "--rooms", str(args.rooms), "--players", str(args.players),
                "--saturate", str(args.saturate), "--paced", str(args.paced),
            ],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert load.stdin is not None and load.stdout is not None
        bots = int(read_until(load.stdout, r"ready (\d+)").group(1))
        per_player = (rss_kib(server.pid) - baseline) / bots
        cpu_before = cpu_seconds(server.pid)
        load.stdin.write("go\n")
        load.stdin.flush()
        done = int(read_until(load.stdout, r"saturated (\d+)").group(1))
        cpu_per_move = (cpu_seconds(server.pid) - cpu_before) / max(done, 1)
        result: dict[str, Any] = json.loads(read_until(load.stdout, r"^\{.*\}$").group(0))
        load.wait(timeout=60)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return Figures(
        moves_per_s=result["moves_per_s"],
        cpu_us_per_move=cpu_per_move * 1e6,
        p50_ms=result["p50_ms"],
        p99_ms=result["p99_ms"],
        kib_per_player=per_player,
    )


def report(ideal: Figures, full: Figures, args: argparse.Namespace) -> None:
    where = "server pinned to its own core" if PINNED else "one core shared"
    print(f"{args.rooms} rooms x {args.players} players, one server process, loopback, {where}")
    print(f"{'':24}{'ideal path':>14}{'full server':>14}{'full/ideal':>12}")
    rows = [
        ("moves/s at saturation", "moves_per_s", "{:,.0f}"),
        ("server CPU us/move", "cpu_us_per_move", "{:,.0f}"),
        (f"ack p50 ms @{args.rate:.0f}/s", "p50_ms", "{:.2f}"),
        (f"ack p99 ms @{args.rate:.0f}/s", "p99_ms", "{:.2f}"),
        ("server KiB per player", "kib_per_player", "{:.1f}"),
    ]
    for label, field, fmt in rows:
        a, b = getattr(ideal, field), getattr(full, field)
        ratio = b / a if a else float("nan")
        print(f"{label:24}{fmt.format(a):>14}{fmt.format(b):>14}{ratio:>12.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--saturate", type=float, default=10.0)
    parser.add_argument("--paced", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=1000.0)
    args = parser.parse_args()
    if PINNED:
        os.sched_setaffinity(0, {LOAD_CPU})
    with tempfile.TemporaryDirectory() as data:
        valkey = EmbeddedValkey(Path(data))
        url = valkey.start()
        try:
            ideal = measure("ideal", url, args)
            full = measure("full", url, args)
        finally:
            valkey.stop()
    report(ideal, full, args)


if __name__ == "__main__":
    main()
