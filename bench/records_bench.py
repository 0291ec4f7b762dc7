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
import hashlib
import random
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
from bench.store_bench import delete_prefix, redis_cpu_s
from protocol import HistoryEntry, Settings
from protocol.limits import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH
from server.accounts.codec import pack_history
from server.config import Config
from server.lifecycle import race as races
from server.lifecycle import recording
from server.lifecycle import room as rooms
from server.lifecycle.rating import Skill
from server.ops.embedded import EmbeddedValkey
from server.race_flow.records import record
from server.store import DealWin, RatingMove, Store, StoredRating
from server.store._runner import ScriptRunner
from server.store._script import Call, Script
from server.store._wire import packing_in_c

GAME = "little-forty"
SEATS = 4
START_MS = 1_767_225_600_000
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


def room_code(number: int) -> str:
    """The `number`-th room code of the bench (the protocol's alphabet and length)."""
    digits = []
    for _ in range(ROOM_CODE_LENGTH):
        number, digit = divmod(number, len(ROOM_CODE_ALPHABET))
        digits.append(ROOM_CODE_ALPHABET[digit])
    return "".join(reversed(digits))


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


def _ids(name: str) -> tuple[str, str, str]:
    """An account's id, its name's digest and its key's digest."""

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    return digest(name)[:16], digest(f"name{name}"), digest(f"key{name}")


async def make_accounts(store: Store, count: int, tag: str) -> list[str]:
    ids = []
    for number in range(count):
        name = f"{tag}{number}"
        account_id, name_digest, key_digest = _ids(name)
        assert await store.create_account(account_id, name, name_digest, key_digest, START_MS)
        ids.append(account_id)
    return ids


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


def history_entry(number: int) -> HistoryEntry:
    """A race as an active player's history holds it: mostly rated, some public deals."""
    public = number % 5 == 0
    return HistoryEntry(
        at_ms=START_MS + number * 600_000,
        variant=GAME,
        code=room_code(number),
        race_no=1 + number % 7,
        deal_number=1000 + number if public else None,
        rated=not public,
        practice=False,
        place=1 + number % 4,
        racers=4,
        outcome="won" if number % 4 == 0 else "resigned",
        progress=52 if number % 4 == 0 else 20 + number % 30,
        elapsed_ms=100_000 + number * 137,
        moves=120 + number % 80,
        rating_before=None if public else 1500 + number,
        rating_after=None if public else 1501 + number,
    )


async def account_memory(url: str, store: Store, prefix: str) -> tuple[int, int, int]:
    """Bytes an account with 100 races takes in Redis, its done markers, its payload."""
    (account,) = await make_accounts(store, 1, "memory")
    rating = StoredRating(25.0, 25.0 / 3.0, 0)
    for number in range(100):
        entry = history_entry(number)
        move = None if not entry.rated else RatingMove(rating, rating.mu + 0.3, rating.sigma * 0.97)
        win = None
        if entry.deal_number is not None and entry.outcome == "won":
            win = DealWin(entry.deal_number, entry.elapsed_ms, entry.at_ms)
        recorded = await store.apply_record(
            account,
            f"R{number}:1:{entry.at_ms}",
            GAME,
            history=pack_history(entry),
            rating=move,
            best=win,
            board_min_races=5,
        )
        assert recorded is not None
        rating = recorded.rating or rating
    client = Redis.from_url(url)
    try:
        keys = [key async for key in client.scan_iter(match=f"{prefix}{{a:{account}}}:*")]
        _, name_digest, key_digest = _ids("memory0")
        keys += [
            f"{prefix}name:{{{name_digest}}}".encode(),
            f"{prefix}key:{{{key_digest}}}".encode(),
        ]
        sizes = {key: await client.memory_usage(key, samples=0) or 0 for key in keys}
        kept = sum(size for key, size in sizes.items() if b":done:" not in key)
        done = sum(size for key, size in sizes.items() if b":done:" in key)
        payload = await _payload(client, [key for key in keys if b":done:" not in key])
    finally:
        await client.aclose()
    return kept, done, payload


async def _payload(client: Redis, keys: Sequence[bytes]) -> int:
    """The bytes the keys hold: strings, list items, hash fields and values."""
    total = 0
    for key in keys:
        kind: Any = await client.type(key)
        kind = kind.decode()
        if kind == "string":
            total += len(await client.get(key) or b"")
        elif kind == "list":
            total += sum(len(item) for item in await client.lrange(key, 0, -1))
        elif kind == "hash":
            fields = await client.hgetall(key)
            total += sum(len(field) + len(value) for field, value in fields.items())
    return total


async def board_memory(url: str, prefix: str, size: int) -> int:
    """Bytes a game's board of `size` accounts takes (MEMORY USAGE)."""
    client = Redis.from_url(url)
    board = f"{prefix}board:{{memory-{size}}}"
    rng = random.Random(size)
    try:
        members = {rng.getrandbits(64).to_bytes(8).hex(): rng.uniform(-5, 40) for _ in range(size)}
        for start in range(0, size, 1000):
            chunk = dict(list(members.items())[start : start + 1000])
            await client.zadd(board, chunk)
        return int(await client.memory_usage(board, samples=0) or 0)
    finally:
        await client.aclose()


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
