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
`SEATS` strong bots play at once in one event loop as in the bot process,
deciding through its `bots.house.decide.Decider` and then waiting their
think time: the share of one core they need is their CPU per move over the
time a move takes them (think time plus choice), times `SEATS`; below 1
they keep a human pace on one core. The wall time of one choice is measured
with the decisions in threads (which share one interpreter lock) and in a
pool of `POOL` worker processes (``--search-processes``), as a ratio.

Run: python -m bench.house_bench [--pace-s S] (default 20 s of play)
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from bench._procs import rss_kib
from bots.house.decide import Decider
from bots.house.link import Link, open_once
from bots.levels import Level
from bots.player import BotPlan, BotPlayer, Sight
from bots.selfplay import play_deal
from engine import Move, Outcome, apply, new_game, outcome, view
from protocol import (
    BoardView,
    CreateRoom,
    Joined,
    JoinRoom,
    PlayerInfo,
    Ready,
    RoomSnapshot,
    ServerMessage,
    Settings,
)
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
POOL = 2
"""Worker processes of the pooled run (`--search-processes`)."""


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


RACING = RoomSnapshot(
    code="BENCH2",
    variant=VARIANT,
    settings=Settings(max_players=1),
    phase="racing",
    race_no=1,
    host=0,
    players=(
        PlayerInfo(
            seat=0,
            name="Bot",
            ready=True,
            away=False,
            outcome="playing",
            progress=0,
            moves=0,
            finished_at_ms=None,
        ),
    ),
    spectators=0,
    start_at_ms=0,
    seed_commit=None,
    seed=None,
)
"""The room a bench bot plays in: racing, its seat still playing."""


@dataclass
class Crowd:
    walls: list[float] = field(default_factory=list)
    """The wall time of each choice."""
    pauses: list[float] = field(default_factory=list)
    """The think time after each choice."""


async def _bot(decide: Decider, seed: int, until: float, crowd: Crowd) -> None:
    """One strong bot deciding and pausing as a house bot does, deal after deal."""
    deal = seed
    while time.monotonic() < until:
        game = new_game(VARIANT, b"deal:%d" % deal)
        player = BotPlayer(BotPlan("Bot", speed=1.0, seed=seed, level="strong"))
        for version in itertools.count():
            if outcome(game) != Outcome.PLAYING or time.monotonic() >= until:
                break
            sight = Sight(RACING, 0, BoardView.from_engine(view(game)), version, None)
            started = time.monotonic()
            player, line = await decide(player, sight, None)
            crowd.walls.append(time.monotonic() - started)
            if line is None or line == "resign":
                break
            crowd.pauses.append(player.pause_s(line))
            await asyncio.sleep(crowd.pauses[-1])
            game = apply(game, Move.parse(line))
        deal += 100


async def _crowd(seconds: float, pool: ProcessPoolExecutor | None) -> Crowd:
    """`SEATS` strong bots playing at once for ``seconds``."""
    crowd = Crowd()
    until, decide = time.monotonic() + seconds, Decider(pool)
    await asyncio.gather(*(_bot(decide, seed, until, crowd) for seed in range(1, SEATS + 1)))
    return crowd


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
    threads = asyncio.run(_crowd(seconds, None))
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(POOL, mp_context=context) as pool:
        asyncio.run(_crowd(1.0, pool))
        pooled = asyncio.run(_crowd(seconds, pool))
    think = statistics.mean(threads.pauses)
    share = SEATS * cpu["strong"] / (think + cpu["strong"])
    print(f"{SEATS} strong bots in one process, {seconds:.0f} s of play each way:")
    print(f"  one core's share they need: {share:.2f} (mean think time {think:.2f} s)")
    walls, pooled_walls = threads.walls, pooled.walls
    print(f"  one choice in threads:       {_ms(walls)} over {len(walls)} moves")
    print(f"  one choice in {POOL} processes: {_ms(pooled_walls)} over {len(pooled_walls)} moves")
    ratio = statistics.mean(pooled_walls) / statistics.mean(walls)
    print(f"  processes to threads: ratio {ratio:.2f}")


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
