"""Abuse isolation: another room's move acks while one client floods the server.

Eight paced players, each racing alone in a room of its own, time their move
acks in three phases of one run: quiet, during a garbage flood (one connection
writing 10,000 frames that are not msgpack, again and again) and during a ping
flood (100 connections x 100 pings, again and again). The figure is each
flood's ack p50 and p99 as ratios to the quiet ones of the same run (target: p99 2x
or less). Three server configurations: the default limits with every abuser
on one address (the limits per address and per connection cut the flood
short, and connections over them wait unanswered); the default limits with
each flood from 100 addresses (100 garbage connections of 10,000 frames at
once, 100 ping connections of one address each), which the per-address
limits do not stop; and every limit lifted with the floods from 100
addresses, so that the server reads every frame and only its fair scheduling
keeps other rooms going. The
server, its Redis (an embedded Valkey) and the flood each run in a process of
their own; the players run in this one. Client addresses are given in
X-Forwarded-For to a server that trusts loopback as a proxy.

Run: python -m bench.abuse_bench [--phase-s S]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench._abuse_victim import Player, long_lines, seat
from bench._full_driver import LINE_LENGTH
from bench._procs import cpu_seconds, read_until
from server.ops.embedded import EmbeddedValkey

CPUS = sorted(os.sched_getaffinity(0))
PINNED = len(CPUS) >= 2
"""With two cores or more the flood gets a core of its own, as an abuser's own
machine would; the server, Redis and the measured players share the other."""
SERVER_CPU, FLOOD_CPU = (CPUS[0], CPUS[1]) if PINNED else (CPUS[0], CPUS[0])
PLAYERS = 8
INTERVAL_S = 0.1
"""Each player moves ten times a second, half the per-connection request rate."""
LIFTED = [
    "--max-connections", "100000", "--connection-rate", "100000",
    "--connection-burst", "100000", "--join-rate", "100000", "--join-burst", "100000",
    "--request-rate", "1000000000", "--request-burst", "1000000000",
]  # fmt: skip
CONFIGS: tuple[tuple[str, list[str], bool], ...] = (
    ("default limits, one abusing address", [], False),
    ("default limits, floods from 100 addresses", [], True),
    ("every limit lifted, floods from 100 addresses", LIFTED, True),
)
PHASES = (("quiet", None), ("garbage 10k frames", "garbage"), ("100 conns x 100 pings", "pings"))


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)] if ordered else float("nan")


def p50(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[len(ordered) // 2] if ordered else float("nan")


async def flood_phase(
    url: str, kind: str, many_hosts: bool, players: list[Player], phase_s: float
) -> tuple[list[float], dict[str, Any]]:
    extra = ["--many-hosts"] if many_hosts else []
    flood = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench._abuse_flood", "--url", url, "--kind", kind,
        "--seconds", str(phase_s + 0.5), *extra, stdout=subprocess.PIPE,
    )  # fmt: skip
    assert flood.stdout is not None
    if PINNED:
        os.sched_setaffinity(flood.pid, {FLOOD_CPU})
    while b"flooding" not in await flood.stdout.readline():
        pass
    acks = await play(players, phase_s)
    out, _ = await flood.communicate()
    tally: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    return acks, tally


async def play(players: list[Player], phase_s: float) -> list[float]:
    acks: list[float] = []
    until = time.monotonic() + phase_s
    await asyncio.gather(*(p.play(until, INTERVAL_S, acks) for p in players))
    return acks


async def run_phases(
    url: str, server_pid: int, many_hosts: bool, phase_s: float
) -> list[tuple[str, list[float], dict[str, Any]]]:
    wanted = math.ceil(len(PHASES) * phase_s / INTERVAL_S) + 10
    lines = long_lines(PLAYERS, min(LINE_LENGTH, wanted))
    players = list(
        await asyncio.gather(
            *(seat(url, deal, line, f"198.51.100.{n + 1}") for n, (deal, line) in enumerate(lines))
        )
    )
    results: list[tuple[str, list[float], dict[str, Any]]] = []
    for label, kind in PHASES:
        cpu_before = cpu_seconds(server_pid)
        tally: dict[str, Any] = {}
        if kind is None:
            acks = await play(players, phase_s)
        else:
            acks, tally = await flood_phase(url, kind, many_hosts, players, phase_s)
        busy = (cpu_seconds(server_pid) - cpu_before) / phase_s
        results.append((label, acks, {"server_cpu": f"{busy:.0%}", **tally}))
    for player in players:
        await player.close()
    return results


def start_server(redis_url: str, options: list[str]) -> tuple[subprocess.Popen[str], str]:
    command = [
        sys.executable, "-m", "server", "--port", "0", "--redis", redis_url,
        "--prefix", f"abuse{os.getpid()}:", "--trusted-proxy", "127.0.0.1", *options,
    ]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    port = int(read_until(server.stdout, r"listening on ws://[\d.]+:(\d+)").group(1))
    return server, f"ws://127.0.0.1:{port}"


def report(label: str, results: list[tuple[str, list[float], dict[str, Any]]]) -> None:
    quiet = p99(results[0][1])
    quiet50 = p50(results[0][1])
    print(f"-- {label}")
    head = f"{'phase':24}{'acks':>6}{'p50 ms':>9}{'p50/quiet':>11}{'p99 ms':>9}{'p99/quiet':>11}"
    print(f"{head}  flood")
    for phase, acks, tally in results:
        ratio = p99(acks) / quiet if quiet else float("nan")
        ratio50 = p50(acks) / quiet50 if quiet50 else float("nan")
        flood = " ".join(f"{k}={v}" for k, v in tally.items())
        print(
            f"{phase:24}{len(acks):>6}{p50(acks):>9.2f}{ratio50:>10.2f}x"
            f"{p99(acks):>9.2f}{ratio:>10.2f}x  {flood}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase-s", type=float, default=4.0)
    args = parser.parse_args()
    print(f"{PLAYERS} players, a move each {INTERVAL_S * 1000:.0f} ms, {args.phase_s:g} s a phase")
    if PINNED:  # Redis and the server, started from here, share this process's core
        os.sched_setaffinity(0, {SERVER_CPU})
    with tempfile.TemporaryDirectory() as data:
        valkey = EmbeddedValkey(Path(data))
        redis_url = valkey.start()
        try:
            for label, options, many_hosts in CONFIGS:
                server, url = start_server(redis_url, options)
                try:
                    results = asyncio.run(run_phases(url, server.pid, many_hosts, args.phase_s))
                finally:
                    server.terminate()
                    server.wait(timeout=30)
                report(label, results)
        finally:
            valkey.stop()


if __name__ == "__main__":
    main()
