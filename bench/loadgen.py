"""Load generator: many bot players over loopback, in a process of its own.

It connects every bot and prints ``ready N``; then it runs one command per line
of stdin and answers each with one JSON line on stdout, so the caller can read
the server's memory and CPU between phases and interleave runs of several
generators:

- ``saturate SECONDS``: every bot sends its next move as soon as the last is
  acknowledged; replies ``{"moves", "seconds"}``;
- ``pace RATE SECONDS``: moves leave at a fixed total rate, spread over the bots,
  a bot never having two moves in flight (see `bench._pacer`); replies
  ``{"sent", "missed", "exhausted", "latencies_ms"}``;
- ``quit``.

Each reply also counts the requests the server answered ``server/busy`` during the
command (``busy``); the bots send those again after a pause.

Drivers: ``ideal`` speaks the bare protocol of `bench.ideal_server`; ``full``
speaks the real protocol (see `bench._full_driver`), and spreads each room's
players over every ``--url`` given.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from bench._pacer import Pacer


class Bot(Protocol):
    busy: int
    """Requests answered `server/busy` and sent again, so far."""

    async def move(self) -> bool:
        """Send the next move and wait for its acknowledgement; False when out of moves."""
        ...


TICK_S = 0.001
Setup = Callable[[Sequence[str], range, int], Awaitable[Sequence[Bot]]]


async def saturate(bots: Sequence[Bot], seconds: float) -> dict[str, Any]:
    done = 0
    deadline = time.perf_counter() + seconds

    async def loop(bot: Bot) -> None:
        nonlocal done
        while time.perf_counter() < deadline and await bot.move():
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(loop(bot) for bot in bots))
    return {"moves": done, "seconds": time.perf_counter() - start}


async def pace(bots: Sequence[Bot], rate: float, seconds: float) -> dict[str, Any]:
    latencies: list[float] = []
    exhausted = 0
    tasks: set[asyncio.Task[None]] = set()
    start = time.perf_counter()
    pacer: Pacer[Bot] = Pacer(bots, rate, start)

    async def one(bot: Bot) -> None:
        nonlocal exhausted
        sent = time.perf_counter()
        if await bot.move():
            latencies.append((time.perf_counter() - sent) * 1000)
            pacer.done(bot)
        else:
            exhausted += 1

    while (now := time.perf_counter()) - start < seconds:
        for bot in pacer.due(now):
            task = asyncio.create_task(one(bot))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.sleep(TICK_S)
    await asyncio.gather(*tasks)
    return {
        "sent": pacer.sent,
        "missed": pacer.missed,
        "exhausted": exhausted,
        "latencies_ms": [round(value, 3) for value in latencies],
    }


async def serve_commands(bots: Sequence[Bot]) -> None:
    loop = asyncio.get_running_loop()
    busy = sum(bot.busy for bot in bots)
    while line := (await loop.run_in_executor(None, sys.stdin.readline)).split():
        reply: dict[str, Any]
        if line[0] == "saturate":
            reply = await saturate(bots, float(line[1]))
        elif line[0] == "pace":
            reply = await pace(bots, float(line[1]), float(line[2]))
        elif line[0] == "quit":
            return
        else:
            reply = {"error": f"unknown command {line[0]!r}"}
        reply["busy"], busy = sum(bot.busy for bot in bots) - busy, sum(bot.busy for bot in bots)
        print(json.dumps(reply), flush=True)


async def run(setup: Setup, args: argparse.Namespace) -> None:
    rooms = range(args.first_room, args.first_room + args.rooms)
    bots = await setup(args.url, rooms, args.players)
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    print(f"ready {len(bots)}", flush=True)
    await serve_commands(bots)


def choose_setup(driver: str) -> Setup:
    if driver == "ideal":
        from bench._ideal_driver import setup as ideal_setup

        return ideal_setup
    from bench._full_driver import setup as full_setup

    return full_setup


def raise_open_files_limit() -> None:
    """Let this process open as many sockets as the hard limit allows."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", action="append", required=True)
    parser.add_argument("--driver", choices=("ideal", "full"), required=True)
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--first-room", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    raise_open_files_limit()
    setup = choose_setup(args.driver)
    try:
        import uvloop
    except ImportError:
        asyncio.run(run(setup, args))
    else:
        uvloop.run(run(setup, args))


if __name__ == "__main__":
    main()
