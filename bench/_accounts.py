"""Accounts for the records bench: made in the store, and what they take in Redis."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis

from protocol import HistoryEntry
from protocol.limits import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH
from server.accounts.codec import pack_history
from server.store import DealWin, RatingMove, Store, StoredRating

GAME = "little-forty"
START_MS = 1_767_225_600_000


def room_code(number: int) -> str:
    """The `number`-th room code of the bench (the protocol's alphabet and length)."""
    digits = []
    for _ in range(ROOM_CODE_LENGTH):
        number, digit = divmod(number, len(ROOM_CODE_ALPHABET))
        digits.append(ROOM_CODE_ALPHABET[digit])
    return "".join(reversed(digits))


def account_ids(name: str) -> tuple[str, str, str]:
    """An account's id, its name's digest and its key's digest."""

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    return digest(name)[:16], digest(f"name{name}"), digest(f"key{name}")


async def make_accounts(store: Store, count: int, tag: str) -> list[str]:
    ids = []
    for number in range(count):
        name = f"{tag}{number}"
        account_id, name_digest, key_digest = account_ids(name)
        assert await store.create_account(account_id, name, name_digest, key_digest, START_MS)
        ids.append(account_id)
    return ids


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
        _, name_digest, key_digest = account_ids("memory0")
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
