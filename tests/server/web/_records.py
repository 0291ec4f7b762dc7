"""Accounts with ratings, races and best times for the profile and leaderboard tests.

Accounts are made by the store's own verb; what settled races leave behind is
written straight into the keys as server/store/_keys.py's module doc lays them
out (the storage contract the account requests read): a rating per game, history
entries packed by `server.accounts.codec`, best times, the game's board and the
deal's board.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field

import msgpack
from redis.asyncio import Redis

from protocol import HistoryEntry
from server.accounts.codec import pack_history
from server.accounts.names import name_digest
from server.config import Config
from server.store import Store
from server.store._keys import StoreKeys

MIN_RACES = Config().leaderboard_min_races
"""The rated races an account needs on a board; the seeded boards hold those with as many."""
DAY_MS = 86_400_000
CREATED_MS = 1_764_000_000_000  # 2025-11-24 16:00 UTC, a week before the races
RACE_MS = CREATED_MS + 7 * DAY_MS + 3_600_000 * 15 + 60_000 * 7  # 2025-12-02 07:07 UTC


def shown(mu: float, sigma: float) -> int:
    """The rating shown for (mu, sigma): round(1500 + 20 (mu - 3 sigma))."""
    return round(1500 + 20 * (mu - 3 * sigma))


@dataclass
class Records:
    """Writes accounts and what settled races leave behind, under one key prefix."""

    store: Store
    redis: Redis
    keys: StoreKeys
    ids: dict[str, str] = field(default_factory=dict)
    """Account id by name."""

    async def account(self, name: str, created_ms: int = CREATED_MS) -> str:
        ident = secrets.token_hex(8)
        key_digest = hashlib.sha256(secrets.token_bytes(24)).hexdigest()
        made = await self.store.create_account(
            ident, name, name_digest(name), key_digest, created_ms
        )
        assert made, f"the name {name} is taken"
        self.ids[name] = ident
        return ident

    async def rating(self, name: str, variant: str, mu: float, sigma: float, races: int) -> None:
        """The account's rating in `variant`, on the game's board once it has enough races."""
        ident = self.ids[name]
        packed = msgpack.packb([mu, sigma, races])
        await self.redis.hset(self.keys.account(ident).ratings, variant, packed)
        if races >= MIN_RACES:
            await self.redis.zadd(self.keys.index.board(variant), {ident: mu - 3 * sigma})

    async def race(self, name: str, entry: HistoryEntry) -> None:
        """One more race in the account's history (newest first)."""
        history = self.keys.account(self.ids[name]).history
        await self.redis.lpush(history, pack_history(entry))

    async def best(self, name: str, variant: str, deal: int, elapsed_ms: int, at_ms: int) -> None:
        """The account's fastest win of public deal `deal`, on the deal's board."""
        ident = self.ids[name]
        packed = msgpack.packb([elapsed_ms, at_ms])
        await self.redis.hset(self.keys.account(ident).best, f"{variant}:{deal}", packed)
        await self.redis.zadd(self.keys.index.deal(variant, deal), {ident: elapsed_ms})


def entry(at_ms: int, **fields: object) -> HistoryEntry:
    """A history entry: a two-racer unrated race of Little Forty won, unless told otherwise."""
    values: dict[str, object] = {
        "at_ms": at_ms,
        "variant": "little-forty",
        "code": "ABC234",
        "race_no": 1,
        "deal_number": None,
        "rated": False,
        "practice": False,
        "place": 1,
        "racers": 2,
        "outcome": "won",
        "progress": 104,
        "elapsed_ms": 83_400,
        "moves": 131,
    }
    return HistoryEntry.model_validate(values | fields)


ADA = "Ada"
ZOE = "Zoë Ñandú"
"""A name outside ASCII, with an inner space: its address is percent-encoded."""
RIVALS = [f"Racer{n:02d}" for n in range(1, 25)]
"""With Ada and Zoë, 26 accounts on Little Forty's board: a page of 20 and one of 6."""
ADA_FORTY = (30.0, 2.0, 12)  # mu, sigma, rated races: shown 1980, on the board
ADA_BILLIE = (25.0, 25 / 3, 2)  # shown 1500, provisional, not on the board
ADA_RACES = [
    entry(RACE_MS, rated=True, rating_before=1960, rating_after=1980, code="RTD234", race_no=3),
    entry(
        RACE_MS - DAY_MS,
        variant="little-billie",
        practice=True,
        place=2,
        racers=3,
        outcome="stuck",
        progress=61,
        elapsed_ms=301_250,
        moves=77,
        code="PRC567",
    ),
    entry(RACE_MS - 2 * DAY_MS, deal_number=7, code="PUB789", elapsed_ms=95_000),
]
"""Newest first, as the profile shows them."""


async def seed(records: Records) -> None:
    """Ada, Zoë and 24 rivals: ratings, Ada's three races, best times on deal 7."""
    await records.account(ADA)
    await records.rating(ADA, "little-forty", *ADA_FORTY)
    await records.rating(ADA, "little-billie", *ADA_BILLIE)
    for race in reversed(ADA_RACES):
        await records.race(ADA, race)
    await records.best(ADA, "little-forty", 7, 95_000, RACE_MS - 2 * DAY_MS)
    await records.account(ZOE, CREATED_MS + DAY_MS)
    await records.rating(ZOE, "little-forty", 31.0, 2.5, 5)
    await records.best(ZOE, "little-forty", 7, 88_800, RACE_MS - 3 * DAY_MS)
    for n, rival in enumerate(RIVALS):
        await records.account(rival)
        await records.rating(rival, "little-forty", 20.0 + n / 4, 3.0, 6 + n)
