"""The event loop's lag while the server analyses raced deals, beside the same loop idle.

A race server runs in this process over an embedded Valkey. On its event loop
a ticker sleeps 10 ms at a time and records how late each wake-up comes, and a
client pings the server every 20 ms and records the round trip. Each phase
lasts ``--seconds``:

- idle: no race, no analysis (the ideal path);
- analysing: lone players race a pinned deal the solver cannot decide within
  the verdict budget and resign at once, so the server's solver worker spends
  the whole phase on post-race verdicts (`server.race_flow.verdict`);
- inline: the same verdict job called on the event loop itself, once, as a
  reference for what a blocked loop would look like.

Idle and analysing alternate for three rounds. Figures are ms; the analysing
phases are summed up as ratios to the idle ones (median and range).

Run: python -m bench.analysis_bench [--seconds S] [--budget S]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect

from bench._stats import percentile, ratios
from protocol import (
    PROTOCOL_VERSION,
    CreateRoom,
    EventFrame,
    Hello,
    Ping,
    Ready,
    Resign,
    Settings,
    decode_server,
    encode,
)
from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.ops.embedded import EmbeddedValkey
from server.solver.jobs import deal_verdict
from server.store import Store

T = TypeVar("T")
ROUNDS = 3
"""Idle and analysing phases, interleaved."""
TICK_S = 0.010
PING_EVERY_S = 0.020
HARD_DEAL = ("little-milligan", 1)
"""A deal the solver leaves undecided at a budget of a few seconds, so each verdict
spends its whole budget."""


class Client:
    """Requests by id and the room's events, over one connection."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[Any]] = {}
        self.events: asyncio.Queue[Any] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str) -> Client:
        client = cls(await connect(url, compression=None, max_size=None))
        await client.call(Hello, version=PROTOCOL_VERSION, client="bench")
        return client

    async def call(self, kind: Callable[..., Any], **fields: Any) -> Any:
        request_id = next(self.ids)
        reply = self.waiting[request_id] = asyncio.get_running_loop().create_future()
        await self.conn.send(encode(kind(id=request_id, **fields)))
        return await reply

    async def event(self, kind: str) -> Any:
        while (event := await self.events.get()).type != kind:
            pass
        return event

    async def close(self) -> None:
        await self.conn.close()
        self.reader.cancel()

    async def _read(self) -> None:
        async for frame in self.conn:
            assert isinstance(frame, bytes)
            message = decode_server(frame)
            if isinstance(message, EventFrame):
                self.events.put_nowait(message.event)
            elif (reply := self.waiting.pop(getattr(message, "id", None) or 0, None)) is not None:
                reply.set_result(message)
            else:
                raise RuntimeError(f"unexpected message: {message}")


async def ticker(lags: list[float], stop: asyncio.Event) -> None:
    """How late each 10 ms sleep wakes up, in ms."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(TICK_S)
        lags.append((time.perf_counter() - start - TICK_S) * 1000)


async def pinger(client: Client, trips: list[float], stop: asyncio.Event) -> None:
    """Round trips of a ping every 20 ms, in ms."""
    while not stop.is_set():
        start = time.perf_counter()
        await client.call(Ping)
        trips.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(PING_EVERY_S)


async def race_once(url: str, clock: ManualClock) -> None:
    """A lone player races the hard deal and resigns; the server then analyses it."""
    variant, deal = HARD_DEAL
    settings = Settings(max_players=1, countdown_s=1, deal_number=deal)
    client = await Client.open(url)
    try:
        await client.call(CreateRoom, variant=variant, name="Lone", settings=settings)
        await client.call(Ready, ready=True)
        clock.advance_to((await client.event("countdown")).start_at_ms)
        await client.event("race_started")
        await client.call(Resign)
        await client.event("race_over")
    finally:
        await client.close()


async def feed(server: RaceServer, url: str, clock: ManualClock, stop: asyncio.Event) -> int:
    """Keep the solver workers busy with post-race verdicts; the races run."""
    analyst, races = server.services.analyst, 0
    while not stop.is_set():
        if analyst.pending >= analyst.workers:
            await asyncio.sleep(0.05)
            continue
        await race_once(url, clock)
        races += 1
    return races


async def phase(
    server: RaceServer, seconds: float, work: Callable[[asyncio.Event], Coroutine[Any, Any, T]]
) -> tuple[list[float], list[float], T]:
    """Ticker lags and ping round trips for ``seconds`` while ``work`` runs."""
    stop = asyncio.Event()
    lags: list[float] = []
    trips: list[float] = []
    client = await Client.open(f"ws://127.0.0.1:{server.port}")
    try:
        tasks = [
            asyncio.create_task(ticker(lags, stop)),
            asyncio.create_task(pinger(client, trips, stop)),
        ]
        done = asyncio.create_task(work(stop))
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks)
        result = await done
    finally:
        await client.close()
    return lags, trips, result


def summary(values: list[float]) -> tuple[float, float, float]:
    return percentile(values, 0.5), percentile(values, 0.99), max(values)


def row(name: str, lags: list[float], trips: list[float]) -> tuple[float, ...]:
    figures = (*summary(lags), *summary(trips))
    print(f"{name:<10}" + "".join(f"{value:>10.2f}" for value in figures))
    return figures


async def run(seconds: float, budget_s: float) -> None:
    clock = ManualClock()
    with tempfile.TemporaryDirectory() as directory:
        valkey = EmbeddedValkey(Path(directory) / "valkey")
        valkey.start()
        try:
            store = await Store.connect(valkey.url, "bench-analysis:")
            config = Config(
                port=0,
                analysis_workers=1,
                verdict_budget_s=budget_s,
                rate_per_s=100_000.0,
                rate_burst=100_000.0,
            )
            async with store, RaceServer(config, store, clock) as server:
                await measure(server, clock, seconds, budget_s)
        finally:
            valkey.stop()


async def measure(server: RaceServer, clock: ManualClock, seconds: float, budget_s: float) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    await race_once(url, clock)  # starts the worker, so no phase pays for it
    print(f"verdict budget {budget_s:g} s CPU, 1 solver worker, {seconds:g} s per phase")
    print(f"{'':<10}{'tick p50':>10}{'tick p99':>10}{'tick max':>10}", end="")
    print(f"{'ping p50':>10}{'ping p99':>10}{'ping max':>10}   (ms)")

    async def idle(stop: asyncio.Event) -> int:
        await stop.wait()
        return 0

    async def analysing(stop: asyncio.Event) -> int:
        return await feed(server, url, clock, stop)

    async def inline(stop: asyncio.Event) -> int:
        await asyncio.sleep(0.2)
        deal_verdict(HARD_DEAL[0], b"deal:%d" % HARD_DEAL[1], budget_s)
        return 1

    runs: dict[str, list[tuple[float, ...]]] = {"idle": [], "analysing": []}
    races = 0
    for _ in range(ROUNDS):
        for name, work in (("idle", idle), ("analysing", analysing)):
            lags, trips, done = await phase(server, seconds, work)
            runs[name].append(row(name, lags, trips))
            races += done if name == "analysing" else 0
    lags, trips, _ = await phase(server, max(seconds, budget_s + 1), inline)
    row("inline", lags, trips)
    print(f"{races} races analysed; analysing / idle, median [lowest-highest] of {ROUNDS}:")
    for column, name in ((1, "tick p99"), (2, "tick max"), (4, "ping p99"), (5, "ping max")):
        tops = [figures[column] for figures in runs["analysing"]]
        bottoms = [max(figures[column], 0.01) for figures in runs["idle"]]
        print(f"  {name} {ratios(tops, bottoms).format('.2f')}x", end="")
    print(f"\n  (inline: the loop stalls for the whole search, {budget_s:g} s CPU)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each phase")
    parser.add_argument("--budget", type=float, default=1.0, help="verdict budget, CPU s")
    args = parser.parse_args()
    asyncio.run(run(args.seconds, args.budget))


if __name__ == "__main__":
    main()
