"""Race records, measured: every figure beside the ideal path's from the same run.

- Rating a finished 4-player race: the whole records step
  (`server.race_flow.records.record`: load the room and its seats' games, read the
  priors, plan, guarded save, one script per account, the boards, the guarded
  close), CPU per race in this process and in Redis, on a store with group commit
  as the server runs it. The ideal path is the least those writes can cost on this
  stack: one bare script per account, the four in one pipeline, that stores the
  same history entry, rating and done marker with no plan, no check and no room.
  The pure plan alone (OpenSkill and the history entries) is shown too. It all runs
  off the move path: the step starts after the race closes, in the background.
- Redis memory per account with 100 races of history: MEMORY USAGE over every key
  of the account (its hash, ratings, history, best times, name and key indexes;
  the day's done markers apart, since they expire), beside the bytes it holds
  (field names and values, no key names or Redis overhead).
- Per 1,000 accounts on a leaderboard: MEMORY USAGE of a game's board of 1,000 and
  of 10,000 accounts, per 1,000, beside the bytes of an id and a score each.

Run: python -m bench.records_bench [--redis URL] [--races N]
(with no --redis it starts an embedded Valkey in a temporary directory).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgpack
from redis.asyncio import BlockingConnectionPool, Redis

import engine
from bench._accounts import (
    GAME,
    START_MS,
    account_memory,
    board_memory,
    make_accounts,
    room_code,
)
from bench.store_bench import delete_prefix, redis_cpu_s
from protocol import Settings
from server.accounts.codec import pack_history
from server.config import Config
from server.lifecycle import race as races
from server.lifecycle import recording
from server.lifecycle import room as rooms
from server.lifecycle.rating import Skill
from server.ops.embedded import EmbeddedValkey
from server.race_flow.records import record
from server.store import Store
from server.store._runner import ScriptRunner
from server.store._script import Call, Script
from server.store._wire import packing_in_c

SEATS = 4
NAMES = ("Ann", "Bob", "Cyd", "Dan")

IDEAL = Script(
    keys=("ratings", "history", "done"),
    args=("game", "rating", "entry"),
    body="""
redis.call('HSET', ratings, game, rating)
redis.call('LPUSH', history, entry)
redis.call('SET', done, '1', 'EX', 86400)
return {OK}
""",
)


def finished_room(code: str, accounts: Sequence[str], start_ms: int) -> rooms.Room:
    """A rated room whose race of four accounts is over: one won, three resigned."""
    settings = Settings(countdown_s=1, rated=True)
    room = rooms.create(code, GAME, settings, NAMES[0], b"s" * 32, process="p", token="t0").room
    for seat in range(1, SEATS):
        _, (room, _) = rooms.join(room, NAMES[seat], "p", f"t{seat}")
    for player, account in zip(room.players, accounts, strict=True):
        room = rooms.put_player(room, replace(player, account=account))
    for player in room.players:
        room = rooms.set_ready(room, player.seat, True, start_ms - 1000).room
    room = races.start(room, start_ms).room
    room = races.player_finished(room, 0, "won", start_ms + 61_000).room
    for seat in range(1, SEATS):
        room = races.player_finished(room, seat, "resigned", start_ms + 70_000 + seat).room
    return races.finish_race(room, {}, start_ms + 70_010).room


async def stored_races(store: Store, count: int, accounts: Sequence[str]) -> list[str]:
    """`count` finished races of the same four accounts, in the store with their games."""
    state = engine.to_bytes(engine.new_game(GAME, b"s" * 32))
    codes = []
    for number in range(count):
        code, start_ms = room_code(number), START_MS + number * 100_000
        room = finished_room(code, accounts, start_ms)
        await store.create_room(code, rooms.to_bytes(room))
        players = dict.fromkeys(range(SEATS), state)
        await store.start_race(code, 0, rooms.to_bytes(room), players, start_at_ms=start_ms)
        codes.append(code)
    return codes


async def _cpu(url: str, work: Any) -> tuple[float, float]:
    """Seconds of CPU here and in Redis that awaiting `work` took."""
    redis_before, here_before = await redis_cpu_s(url), time.process_time()
    await work
    here = time.process_time() - here_before
    return here, await redis_cpu_s(url) - redis_before


async def rating_cpu(url: str, store: Store, count: int) -> dict[str, tuple[float, float]]:
    """CPU per race of the records step, of its plan alone and of the ideal path."""
    accounts = await make_accounts(store, SEATS, "rater")
    codes = await stored_races(store, count, accounts)
    config = Config()

    async def step() -> None:
        for code in codes:
            await record(store, config, code)

    full = await _cpu(url, step())
    room = finished_room(room_code(10**6), accounts, START_MS)
    priors = {account: Skill(25.0, 8.0, 3) for account in accounts}
    started = time.process_time()
    for _ in range(count):
        recording.plan_for(room, {}, priors, config.provisional_races)
    plan_s = time.process_time() - started
    ideal = await _cpu(url, _ideal(store, url, count, room, accounts))
    return {
        "records step": (full[0] / count, full[1] / count),
        "plan alone": (plan_s / count, 0.0),
        "ideal path": (ideal[0] / count, ideal[1] / count),
    }


async def _ideal(store: Store, url: str, count: int, room: rooms.Room, accounts: list[str]) -> None:
    pool = BlockingConnectionPool.from_url(url, max_connections=8)
    pool.connection_class = packing_in_c(pool.connection_class)
    client = Redis.from_pool(pool)
    runner = ScriptRunner(client, group=True)
    plan = recording.plan_for(room, {}, {}, 5)
    assert plan is not None
    entry = pack_history(plan.seats[0].entry)
    rating = msgpack.packb([27.123456789, 7.987654321, 4])
    prefix = f"ideal:{uuid.uuid4().hex}:"
    try:
        await runner.load([IDEAL])
        # One call first, so that the connection is open before the figures start.
        await runner.run(
            Call(IDEAL, [f"{prefix}w", f"{prefix}w:h", f"{prefix}w:d"], ["g", b"", b""])
        )
        for number in range(count):
            calls = []
            for account in accounts:
                base = f"{prefix}{{a:{account}}}:"
                keys = [base + "ratings", base + "history", f"{base}done:I{number}"]
                calls.append(runner.run(Call(IDEAL, keys, [GAME, rating, entry])))
            await asyncio.gather(*calls)
    finally:
        await client.aclose()
        await delete_prefix(url, prefix)


async def run(url: str, count: int) -> None:
    prefix = f"bench:{uuid.uuid4().hex}:"
    store = await Store.connect(url, prefix)
    try:
        cpu = await rating_cpu(url, store, count)
        kept, done, payload = await account_memory(url, store, prefix)
        boards = {size: await board_memory(url, prefix, size) for size in (1_000, 10_000)}
    finally:
        await store.close()
        await delete_prefix(url, prefix)
    ideal_here, ideal_redis = cpu["ideal path"]
    print(f"Rating a finished {SEATS}-player race ({count} races), CPU per race:")
    for name, (here, redis_s) in cpu.items():
        ratio = f"x{(here + redis_s) / (ideal_here + ideal_redis):.2f} of the ideal path"
        print(
            f"  {name:>12}: {here * 1e6:7.0f} us here, {redis_s * 1e6:6.0f} us in Redis ({ratio})"
        )
    print("Redis memory per account with 100 races of history:")
    print(
        f"  kept for good: {kept:,} B = {kept / 1024:.1f} KiB (target under 20 KiB); "
        f"payload {payload:,} B (x{kept / payload:.2f})"
    )
    print(
        f"  the day's done markers: {done:,} B more until they expire ({done / 100:.0f} B a race)"
    )
    ideal_board = 1_000 * (16 + 8)
    for size, used in boards.items():
        per = used * 1_000 / size
        print(
            f"Leaderboard of {size:,} accounts: {per:,.0f} B per 1,000 accounts; "
            f"payload {ideal_board:,} B (x{per / ideal_board:.2f})"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--redis", help="Redis URL (default: an embedded Valkey)")
    parser.add_argument("--races", type=int, default=200)
    args = parser.parse_args(argv)
    if args.redis:
        asyncio.run(run(args.redis, args.races))
        return
    with tempfile.TemporaryDirectory(prefix="solrace-bench-") as data_dir:
        valkey = EmbeddedValkey(Path(data_dir))
        try:
            asyncio.run(run(valkey.start(), args.races))
        finally:
            valkey.stop()


if __name__ == "__main__":
    main()
