"""House bots: the bot process's memory per bot, and the strong level's CPU and pace.

Memory: a race server on loopback over an embedded Valkey, and the bot
process as the server starts it (``python -m bots.house``). The bench hosts
rooms of two (Little Milligan, public deal 2), takes each room's second seat
as a bot, hands its token to the process (``drive``) and starts the race, so
every bot is racing when the process's resident memory is read, with 1,
`SEATS` and then `MORE_SEATS` bots. The ideal path is a bare protocol client
(`bench._bare_links`: a connection that said ``hello``, nothing more) read
the same way; the ratio says how much more a racing house bot holds.

CPU and pace: CPU per move is the CPU time one choice takes, over whole
games of public deals through the engine (`bots.selfplay`); the strong
level's beside the good level's (the careful strategy) as a ratio. Then
`SEATS` strong bots play in one event loop as in the bot process, each
choosing in a worker thread (`asyncio.to_thread`) and then waiting its
level's think time: the share of one core they need is their CPU per move
over the time a move takes them (think time plus choice), times `SEATS`;
below 1 they keep a human pace on one core. The wall time of one choice
beside its CPU time shows how long a choice waits for the interpreter (the
GIL, shared by the threads) and the machine.

Run: python -m bench.house_bench [--pace-s S] (default 20 s of play)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from bench._procs import rss_kib
from bots.house.link import Link, open_once
from bots.levels import Level, think_time
from bots.selfplay import play_deal
from bots.strategy import Tried, choose_at
from engine import Move, Outcome, apply, legal_moves, new_game, outcome, view
from protocol import BoardView, CreateRoom, Joined, JoinRoom, Ready, ServerMessage, Settings
from server.app import RaceServer
from server.config import Config
from server.ops.embedded import EmbeddedValkey
from server.store import Store

SEATS = 10
MORE_SEATS = 20
RACING_S = 3.0
"""How long the bots race before the memory is read."""
VARIANT, DEAL = "little-milligan", 2
DEALS = range(1, 4)


async def _call(link: Link, request: CreateRoom | JoinRoom | Ready) -> ServerMessage:
    await link.send(request)
    while True:
        message = await link.recv()
        if getattr(message, "id", None) == request.id:
            return message


async def _drain(link: Link) -> None:
    """Read a host's link to its end, so the server never waits on it."""
    while True:
        await link.recv()


class Rooms:
    """Rooms the bench hosts, each with a house bot in its second seat."""

    def __init__(self, url: str, house: asyncio.subprocess.Process) -> None:
        self.url, self.house = url, house
        self.hosts: list[Link] = []
        self.readers: list[asyncio.Task[None]] = []

    async def add(self) -> None:
        settings = Settings(max_players=2, countdown_s=1, time_limit_s=3600, deal_number=DEAL)
        host = await open_once(self.url)
        create = CreateRoom(id=1, variant=VARIANT, name="Host", settings=settings)
        created = await _call(host, create)
        assert isinstance(created, Joined), created
        seat = await open_once(self.url)
        join = JoinRoom(id=1, code=created.code, name="Bot", bot=True, level="good")
        joined = await _call(seat, join)
        assert isinstance(joined, Joined) and joined.token is not None, joined
        name = f"{joined.code}:{joined.seat}"
        self._tell({"op": "drive", "seat": name, "token": joined.token, "level": "good", "seed": 1})
        await self._heard("driving", name)
        await seat.close()
        await _call(host, Ready(id=2, ready=True))
        self.hosts.append(host)
        self.readers.append(asyncio.create_task(_drain(host)))

    def _tell(self, command: dict[str, object]) -> None:
        assert self.house.stdin is not None
        self.house.stdin.write((json.dumps(command) + "\n").encode())

    async def _heard(self, op: str, seat: str) -> None:
        assert self.house.stdout is not None
        while line := await self.house.stdout.readline():
            said = json.loads(line)
            if said["op"] == op and said.get("seat") == seat:
                return
            if said["op"] == "gone":
                raise RuntimeError(f"a house bot is gone: {said}")
        raise RuntimeError("the bot process ended")

    async def close(self) -> None:
        for reader in self.readers:
            reader.cancel()
        for host in self.hosts:
            await host.close()


async def _house_rss(url: str) -> dict[int, int]:
    """The bot process's resident memory in KiB with each number of racing bots."""
    house = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bots.house",
        "--server",
        url,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    rooms = Rooms(url, house)
    rss: dict[int, int] = {}
    try:
        for count in (1, SEATS, MORE_SEATS):
            while len(rooms.hosts) < count:
                await rooms.add()
            await asyncio.sleep(RACING_S)
            rss[count] = rss_kib(house.pid)
    finally:
        await rooms.close()
        assert house.stdin is not None
        house.stdin.close()
        await house.wait()
    return rss


async def _bare_rss(url: str, count: int) -> int:
    bare = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench._bare_links",
        "--server",
        url,
        "--count",
        str(count),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert bare.stdout is not None and bare.stdin is not None
    await bare.stdout.readline()
    kib = rss_kib(bare.pid)
    bare.stdin.close()
    await bare.wait()
    return kib


async def memory(redis_url: str) -> None:
    store = await Store.connect(redis_url, "bench:house:")
    config = replace(
        Config(),
        port=0,
        analysis_workers=0,
        host="127.0.0.1",
        max_connections_per_address=1000,
        new_connections_per_s=1000.0,
        new_connections_burst=1000,
        joins_per_minute=60_000.0,
        joins_burst=1000,
    )
    """Every connection of the bench comes from 127.0.0.1: the limits per address are lifted."""
    try:
        async with RaceServer(config, store) as server:
            url = f"ws://127.0.0.1:{server.port}"
            house = await _house_rss(url)
            bare = {count: await _bare_rss(url, count) for count in (1, MORE_SEATS)}
    finally:
        await store.close()
    per_bot = (house[MORE_SEATS] - house[1]) / (MORE_SEATS - 1)
    per_link = (bare[MORE_SEATS] - bare[1]) / (MORE_SEATS - 1)
    print("Bot process, resident memory with good bots racing (KiB):")
    for count, kib in house.items():
        print(f"  {count:3} bots: {kib:8,}")
    print(
        f"  per bot: {per_bot:,.0f} KiB; a bare client's connection: {per_link:,.0f} KiB"
        f" (ratio {per_bot / max(per_link, 1):.1f})"
    )


@dataclass
class Choices:
    cpu_s: list[float]
    wall_s: list[float]
    think_s: list[float]


async def _bot(level: Level, seed: int, until: float, choices: Choices) -> None:
    """One bot choosing and pausing as a house bot does, deal after deal."""
    rng, pace = random.Random(seed), random.Random(f"pace:{seed}")
    deal = seed
    while time.monotonic() < until:
        game, tried = new_game(VARIANT, b"deal:%d" % deal), Tried()
        while outcome(game) == Outcome.PLAYING and time.monotonic() < until:
            board = BoardView.from_engine(view(game))
            started = time.monotonic()
            move, cpu = await asyncio.to_thread(_timed_choice, level, board, tried, rng)
            choices.wall_s.append(time.monotonic() - started)
            choices.cpu_s.append(cpu)
            if move is None:
                break
            tried.add((board, move.format()))
            pause = think_time(level, len(legal_moves(game)), pace)
            choices.think_s.append(pause)
            await asyncio.sleep(pause)
            game = apply(game, move)
        deal += 100


def _timed_choice(
    level: Level, board: BoardView, tried: Tried, rng: random.Random
) -> tuple[Move | None, float]:
    start = time.thread_time()
    move = choose_at(level, board, tried, rng)
    return move, time.thread_time() - start


async def _pace(level: Level, bots: int, seconds: float) -> Choices:
    choices = Choices([], [], [])
    until = time.monotonic() + seconds
    await asyncio.gather(*(_bot(level, seed, until, choices) for seed in range(1, bots + 1)))
    return choices


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"mean {statistics.mean(values) * 1000:6.0f} ms, p95 {p95 * 1000:6.0f} ms"


def pace(seconds: float) -> None:
    print(f"CPU per move ({VARIANT}, whole games of public deals {DEALS.start}-{DEALS.stop - 1}):")
    cpu: dict[Level, float] = {}
    for level in ("good", "strong"):
        games = [play_deal(VARIANT, deal, level, seed=1) for deal in DEALS]
        moves = sum(game.moves for game in games)
        cpu[level] = sum(game.seconds for game in games) / moves
        worst = max(game.worst for game in games)
        print(f"  {level:6}: mean {cpu[level] * 1000:6.1f} ms, slowest {worst * 1000:5.0f} ms")
    print(f"  strong to good: ratio {cpu['strong'] / cpu['good']:.0f}")
    crowd = asyncio.run(_pace("strong", SEATS, seconds))
    think = statistics.mean(crowd.think_s)
    share = SEATS * cpu["strong"] / (think + cpu["strong"])
    print(f"{SEATS} strong bots in one process, {seconds:.0f} s of play:")
    print(f"  one core's share they need: {share:.2f} (mean think time {think:.2f} s)")
    wall, used = statistics.mean(crowd.wall_s), statistics.mean(crowd.cpu_s)
    print(
        f"  one choice: {_ms(crowd.wall_s)} wall, mean {used * 1000:.0f} ms CPU"
        f" (ratio {wall / used:.1f}) over {len(crowd.wall_s)} moves"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pace-s", type=float, default=20.0, help="seconds of play per run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="solrace-bench-") as data_dir:
        valkey = EmbeddedValkey(Path(data_dir))
        try:
            asyncio.run(memory(valkey.start()))
        finally:
            valkey.stop()
    pace(args.pace_s)


if __name__ == "__main__":
    main()
