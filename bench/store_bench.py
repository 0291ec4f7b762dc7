"""Group commit, measured: move commits per second with and without grouping.

Many players, in rooms of four, each commit moves back to back (the next one as soon
as the last is stored), as a busy server would. With grouping, the commits that
arrive in one event-loop iteration share one pipeline; without it, each is its own
round trip. Prints both rates and the round trips saved.

Run: python -m bench.store_bench [--redis URL] [--players N] [--moves N]
(with no --redis it starts an embedded Valkey in a temporary directory).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from redis.asyncio import Redis

from server.ops.embedded import EmbeddedValkey
from server.store import MoveCommit, Store

SEATS_PER_ROOM = 4
STATE = bytes(range(256)) * 2  # about the size of an engine state
EVENT = b"\x83\xa4type\xa4move\xa4seat\x01\xa8progress\x0c" * 2


@dataclass(frozen=True)
class Figures:
    commits: int
    seconds: float
    round_trips: int
    client_cpu_s: float
    """CPU time of this process (the store's side: redis-py, encoding, parsing)."""
    redis_cpu_s: float
    """CPU time of the Redis server (the scripts and their commands)."""

    @property
    def rate(self) -> float:
        return self.commits / self.seconds


async def play(store: Store, code: str, seat: int, moves: int) -> None:
    for version in range(moves):
        await store.commit_move(
            MoveCommit(
                code,
                seat,
                version,
                STATE,
                move_text="t3 t7",
                move_id=f"{seat}-{version}",
                now_ms=version,
                progress=version // 4,
                outcome="playing",
                event=EVENT,
            )
        )


async def measure(url: str, players: int, moves: int, *, group_commit: bool) -> Figures:
    prefix = f"bench:{uuid.uuid4().hex}:"
    store = await Store.connect(url, prefix, group_commit=group_commit)
    try:
        seats = [(f"R{n // SEATS_PER_ROOM:05d}", n % SEATS_PER_ROOM) for n in range(players)]
        for code in sorted({code for code, _ in seats}):
            await store.create_room(code, b"room")
            deals = dict.fromkeys(range(SEATS_PER_ROOM), STATE)
            await store.start_race(code, 0, b"room", deals, start_at_ms=0)
        trips_before, redis_before = store.round_trips, await redis_cpu_s(url)
        started, cpu_before = time.perf_counter(), time.process_time()
        await asyncio.gather(*(play(store, code, seat, moves) for code, seat in seats))
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_before
        redis_cpu = await redis_cpu_s(url) - redis_before
        return Figures(players * moves, seconds, store.round_trips - trips_before, cpu, redis_cpu)
    finally:
        await store.close()
        await delete_prefix(url, prefix)


async def redis_cpu_s(url: str) -> float:
    """CPU seconds the Redis server has used so far (INFO cpu)."""
    client = Redis.from_url(url)
    try:
        info = await client.info("cpu")
    finally:
        await client.aclose()
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def delete_prefix(url: str, prefix: str) -> None:
    client = Redis.from_url(url)
    try:
        keys = [key async for key in client.scan_iter(match=prefix + "*", count=1000)]
        for start in range(0, len(keys), 1000):
            await client.unlink(*keys[start : start + 1000])
    finally:
        await client.aclose()


def report(name: str, figures: Figures) -> str:
    per_trip = figures.commits / figures.round_trips
    return (
        f"{name:>10}: {figures.commits} commits in {figures.seconds:.2f} s = "
        f"{figures.rate:,.0f} commits/s, {figures.round_trips} round trips "
        f"({per_trip:.1f} commits per round trip); CPU per commit: "
        f"{figures.client_cpu_s / figures.commits * 1e6:.0f} us here, "
        f"{figures.redis_cpu_s / figures.commits * 1e6:.0f} us in Redis"
    )


async def run(url: str, players: int, moves: int) -> None:
    single = await measure(url, players, moves, group_commit=False)
    grouped = await measure(url, players, moves, group_commit=True)
    print(report("ungrouped", single))
    print(report("grouped", grouped))
    saved = single.round_trips - grouped.round_trips
    print(
        f"round trips saved: {saved} ({saved / single.round_trips:.0%}); "
        f"throughput x{grouped.rate / single.rate:.2f}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--redis", help="Redis URL (default: an embedded Valkey)")
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args(argv)
    if args.redis:
        asyncio.run(run(args.redis, args.players, args.moves))
        return
    with tempfile.TemporaryDirectory(prefix="solrace-bench-") as data_dir:
        valkey = EmbeddedValkey(Path(data_dir))
        try:
            asyncio.run(run(valkey.start(), args.players, args.moves))
        finally:
            valkey.stop()


if __name__ == "__main__":
    main()
