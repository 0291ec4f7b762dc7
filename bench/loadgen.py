"""Load generator: many bot players over loopback, in a process of its own.

It connects every bot (``ready`` on stdout), waits for ``go`` on stdin (so the
caller can read the server's memory in between), then runs two phases and
prints one JSON line:

- saturation: every bot sends its next move as soon as the last is acknowledged;
  the figure is acknowledged moves per second;
- paced: moves leave at a fixed total rate, spread over the bots; the figures
  are the acknowledgement latency percentiles.

Drivers: ``ideal`` speaks the bare protocol of `bench.ideal_server`; ``full``
speaks the real protocol (see `bench._full_driver`).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol


class Bot(Protocol):
    async def move(self) -> bool:
        """Send the next move and wait for its acknowledgement; False when out of moves."""
        ...


SETTLE_S = 3.0
"""Pause between the phases, so frames still in flight from saturation drain first."""

Setup = Callable[[str, int, int], Awaitable[Sequence[Bot]]]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def saturate(bots: Sequence[Bot], seconds: float) -> tuple[int, float]:
    done = 0
    deadline = time.perf_counter() + seconds

    async def loop(bot: Bot) -> None:
        nonlocal done
        while time.perf_counter() < deadline and await bot.move():
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(loop(bot) for bot in bots))
    return done, time.perf_counter() - start


async def paced(bots: Sequence[Bot], rate: float, seconds: float) -> list[float]:
    latencies: list[float] = []
    busy: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()

    async def one(index: int) -> None:
        start = time.perf_counter()
        if await bots[index].move():
            latencies.append(time.perf_counter() - start)
        busy.discard(index)

    tick, sent, cursor = 0.001, 0, 0
    start = time.perf_counter()
    while (now := time.perf_counter()) - start < seconds:
        due = int((now - start) * rate) - sent
        for _ in range(min(due, len(bots))):
            for _ in range(len(bots)):
                cursor = (cursor + 1) % len(bots)
                if cursor not in busy:
                    break
            busy.add(cursor)
            task = asyncio.create_task(one(cursor))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            sent += 1
        await asyncio.sleep(tick)
    await asyncio.gather(*tasks)
    return latencies


async def run(setup: Setup, args: argparse.Namespace) -> dict[str, float]:
    bots = await setup(args.url, args.rooms, args.players)
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    print(f"ready {len(bots)}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    done, elapsed = await saturate(bots, args.saturate)
    print(f"saturated {done} {elapsed:.3f}", flush=True)
    await asyncio.sleep(SETTLE_S)
    latencies = await paced(bots, args.rate, args.paced)
    return {
        "bots": len(bots),
        "moves_per_s": done / elapsed,
        "paced_rate": args.rate,
        "paced_moves": len(latencies),
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
    }


def choose_setup(driver: str) -> Setup:
    if driver == "ideal":
        from bench._ideal_driver import setup as ideal_setup

        return ideal_setup
    from bench._full_driver import setup as full_setup

    return full_setup


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--driver", choices=("ideal", "full"), required=True)
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--saturate", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--paced", type=float, default=10.0)
    args = parser.parse_args()
    setup = choose_setup(args.driver)
    try:
        import uvloop

        result = uvloop.run(run(setup, args))
    except ImportError:
        result = asyncio.run(run(setup, args))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
