"""Ghosts, measured: a server process racing many challenge runs at once, 3 ghosts each.

Every challenger is a bench client in a room of its own opened by ``join_challenge``;
it plays a line of legal moves at a person's pace (one a second) and times each move's
acknowledgement. Two challenges of the same deal and settings are stored first, one
with three recorded runs (each bringing a card home every `STEP_MS`, a fast racer's
pace: all 104 in about three and a half minutes) and one with none. The same load runs
against each, in turns, on one server process, so the only difference is the ghosts the
server plays from the rooms' deadlines:

- CPU per ghost event: the server's CPU time with ghosts minus without, over the
  ``ghost_progress`` events the challengers received, beside the server's CPU per
  live move without ghosts (the ideal path: a move, the server's most common work);
- the live move path's ack p99 with ghosts beside without (target: at most 1.5x), and
  how busy each kept the server (CPU seconds a second) and how long it waited for a
  CPU that other work held (on a shared machine, the tail's usual cause).

Challengers say ready at random instants over one ghost step, so that their ghosts'
steps are spread in time as those of challengers who come when they like would be.
The default is `DEFAULT_RUNS` concurrent runs, to finish in about a minute;
``--runs 1000`` (or ``GHOST_BENCH_RUNS=1000``) is the issue's figure.

Run: python -m bench.ghost_bench [--runs N] [--seconds S] [--turns N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import msgpack
from websockets.asyncio.client import ClientConnection, connect

import engine
from bench._abuse_victim import Player
from bench._full_driver import random_walk
from bench._procs import Server, start_server
from bench._stats import percentile
from bench.loadgen import raise_open_files_limit
from protocol import PROTOCOL_VERSION, Settings
from server.challenges.records import DAY_MS, Challenge, Run, pack, split
from server.ops.embedded import EmbeddedValkey
from server.store import Store

DEFAULT_RUNS = 100
GAME = "little-forty"
SEED = bytes(range(32))
GHOSTS = 3
STEP_MS = 2_000
"""A ghost's time between two cards home."""
MOVE_EVERY_S = 1.0
LINE_LENGTH = 400
SETTINGS = Settings(countdown_s=1, time_limit_s=3600)
JOIN_BATCH = 50


@dataclass
class Tally:
    """What one turn of the load saw."""

    latencies_ms: list[float] = field(default_factory=list)
    ghost_events: int = 0
    cpu_s: float = 0.0
    wait_s: float = 0.0
    """Time the server was ready to run but waited for a CPU that other work held."""


def move_line() -> list[str]:
    """A random walk of legal moves on the bench's deal, as notation."""
    return random_walk(engine.new_game(GAME, SEED), random.Random(7), LINE_LENGTH)


def recorded_run(index: int, start_ms: int) -> Run:
    """A winning run bringing a card home every `STEP_MS` (each ghost a little apart)."""
    reached = tuple((card + 1) * STEP_MS + index * 137 for card in range(104))
    end = reached[-1] + 500
    return Run(
        name=f"Ghost{index + 1}",
        account="",
        original=True,
        start_at_ms=start_ms,
        outcome="won",
        progress=104,
        progress_at_ms=start_ms + reached[-1],
        moves=2 * 104,
        finished_at_ms=start_ms + end,
        reached=reached,
        reached_moves=tuple(2 * (card + 1) for card in range(104)),
        log=(),
    )


async def store_challenges(url: str, prefix: str) -> dict[bool, str]:
    """The two challenges, by whether they have ghosts: their codes."""
    store = await Store.connect(url, prefix)
    now = int(time.time() * 1000)
    codes = {True: "GHSTYS", False: "GHSTNN"}
    try:
        for ghosts, code in codes.items():
            challenge = Challenge(
                code=code,
                variant=GAME,
                settings=SETTINGS,
                seed=SEED,
                room=f"RM{code[-4:]}",
                race_no=1,
                created_ms=now,
                closes_at_ms=now + DAY_MS,
                key_digest="0" * 64,
            )
            made = [recorded_run(index, now - DAY_MS) for index in range(GHOSTS if ghosts else 0)]
            runs = {f"0-{place:03d}": split(run) for place, run in enumerate(made, start=1)}
            await store.create_challenge(
                code, pack(challenge), runs, room=challenge.room, race_no=1, keep_ms=2 * DAY_MS
            )
    finally:
        await store.close()
    return codes


class Challenger(Player):
    """A challenger: a bench `Player` that also counts the ghost steps it is shown."""

    def __init__(self, conn: ClientConnection, line: list[str]) -> None:
        self.ghost_events = 0
        super().__init__(conn, line)

    async def move(self) -> float:
        """Play the next move of the line; its acknowledgement's time in ms."""
        sent = time.perf_counter()
        text = self.line[self.version]
        reply = await self.request(
            type="move", move=text, move_id=f"m{self.version}", expected_version=self.version
        )
        self.version = reply["version"]
        return (time.perf_counter() - sent) * 1000

    async def _read(self) -> None:
        async for frame in self.conn:
            message = msgpack.unpackb(frame)
            if message["type"] == "event":
                kind = message["event"]["type"]
                if kind == "ghost_progress":
                    self.ghost_events += 1
                elif kind == "race_started":
                    self.started.set()
            elif (future := self.waiting.pop(message.get("id"), None)) is not None:
                future.set_result(message)


async def seat(url: str, code: str, line: list[str]) -> Challenger:
    conn = await connect(url, max_size=None, compression=None)
    challenger = Challenger(conn, line)
    await challenger.request(type="hello", version=PROTOCOL_VERSION, client="ghost_bench")
    await challenger.request(type="join_challenge", code=code, name="Racer", ghosts=())
    return challenger


async def start(challenger: Challenger) -> None:
    """Say ready at a random instant of one ghost step: challengers come when they come,
    so their ghosts' steps are spread in time rather than all due at once."""
    await asyncio.sleep(random.random() * STEP_MS / 1000)
    await challenger.request(type="ready", ready=True)
    await challenger.started.wait()


async def play(challenger: Challenger, until: float, tally: Tally) -> None:
    """Moves at `MOVE_EVERY_S`, each challenger starting at its own offset."""
    await asyncio.sleep(random.random() * MOVE_EVERY_S)
    while time.perf_counter() < until and challenger.version < len(challenger.line):
        started = time.perf_counter()
        tally.latencies_ms.append(await challenger.move())
        await asyncio.sleep(max(0.0, MOVE_EVERY_S - (time.perf_counter() - started)))


async def turn(server: Server, code: str, runs: int, seconds: float, line: list[str]) -> Tally:
    """`runs` challengers race challenge `code` for `seconds`; then they leave."""
    challengers: list[Challenger] = []
    for first in range(0, runs, JOIN_BATCH):
        batch = range(first, min(runs, first + JOIN_BATCH))
        challengers += await asyncio.gather(*(seat(server.url, code, line) for _ in batch))
    await asyncio.gather(*(start(challenger) for challenger in challengers))
    tally = Tally()
    before = [challenger.ghost_events for challenger in challengers]
    cpu_before, wait_before = server.cpu_seconds(), server.cpu_wait_seconds()
    until = time.perf_counter() + seconds
    await asyncio.gather(*(play(challenger, until, tally) for challenger in challengers))
    tally.cpu_s = server.cpu_seconds() - cpu_before
    tally.wait_s = server.cpu_wait_seconds() - wait_before
    after = [challenger.ghost_events for challenger in challengers]
    tally.ghost_events = sum(after) - sum(before)
    await asyncio.gather(*(leave(challenger) for challenger in challengers))
    return tally


async def leave(challenger: Challenger) -> None:
    """Resign (the race ends, and with it its ghosts), then close."""
    await challenger.request(type="resign")
    await challenger.conn.close()
    challenger.reader.cancel()


async def measure(server: Server, codes: dict[bool, str], args: argparse.Namespace) -> None:
    line = move_line()
    tallies: dict[bool, list[Tally]] = {True: [], False: []}
    for _ in range(args.turns):
        for ghosts in (False, True):
            tallies[ghosts].append(await turn(server, codes[ghosts], args.runs, args.seconds, line))
    report(tallies, args)


def report(tallies: dict[bool, list[Tally]], args: argparse.Namespace) -> None:
    with_ghosts, without = tallies[True], tallies[False]
    events = sum(tally.ghost_events for tally in with_ghosts)
    moves_ghosts = sum(len(tally.latencies_ms) for tally in with_ghosts)
    moves_plain = sum(len(tally.latencies_ms) for tally in without)
    cpu_ghosts = sum(tally.cpu_s for tally in with_ghosts)
    cpu_plain = sum(tally.cpu_s for tally in without)
    move_cpu_us = cpu_plain / moves_plain * 1e6
    extra_s = cpu_ghosts - cpu_plain * moves_ghosts / moves_plain
    event_cpu_us = extra_s / events * 1e6 if events else float("nan")
    p99_ghosts = percentile([v for t in with_ghosts for v in t.latencies_ms], 0.99)
    p99_plain = percentile([v for t in without for v in t.latencies_ms], 0.99)
    seconds = args.seconds * args.turns
    print(
        f"{args.runs} concurrent challenge runs, {GHOSTS} ghosts each (a card home every"
        f" {STEP_MS / 1000:g} s), a move a second each; {args.turns} turns of"
        f" {args.seconds:g} s, with and without ghosts taking turns"
    )
    print(f"  ghost events: {events} ({events / seconds:.0f}/s)")
    print(
        f"  server CPU per ghost event: {event_cpu_us:.0f} us; per live move (ideal path):"
        f" {move_cpu_us:.0f} us; ratio {event_cpu_us / move_cpu_us:.2f}"
    )
    print(
        f"  server busy (CPU s a second): {cpu_ghosts / seconds:.2f} with ghosts,"
        f" {cpu_plain / seconds:.2f} without"
    )
    wait_ghosts = sum(tally.wait_s for tally in with_ghosts) / seconds * 1000
    wait_plain = sum(tally.wait_s for tally in without) / seconds * 1000
    print(
        f"  server waited for a CPU: {wait_ghosts:.0f} ms a second with ghosts,"
        f" {wait_plain:.0f} ms without"
    )
    print(
        f"  live move ack p99: {p99_ghosts:.1f} ms with ghosts, {p99_plain:.1f} ms without;"
        f" ratio {p99_ghosts / p99_plain:.2f} (target <= 1.5)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_runs = int(os.environ.get("GHOST_BENCH_RUNS", DEFAULT_RUNS))
    parser.add_argument("--runs", type=int, default=default_runs, help="concurrent challenge runs")
    parser.add_argument("--seconds", type=float, default=6.0, help="length of each turn")
    parser.add_argument("--turns", type=int, default=2, help="turns of each load")
    args = parser.parse_args()
    raise_open_files_limit()
    with tempfile.TemporaryDirectory() as data:
        valkey = EmbeddedValkey(Path(data))
        url = valkey.start()
        prefix = f"bench:{uuid.uuid4().hex}:"
        try:
            codes = asyncio.run(store_challenges(url, prefix))
            server = start_server("full", url, prefix, None)
            try:
                asyncio.run(measure(server, codes, args))
            finally:
                server.stop()
        finally:
            valkey.stop()


if __name__ == "__main__":
    main()
