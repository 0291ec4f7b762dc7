"""Accounts in race tests: seated by writing their id into the room's seats (what
sign-in does) with the account's record made in Redis, and read straight from Redis.

The races are scripted clients on a pinned secret deal, so every outcome is known ahead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import msgpack
from redis.asyncio import Redis

from protocol import CreateAccount, HistoryEntry, Settings
from server import room_store
from server.accounts.codec import unpack_history
from server.app import RaceServer
from server.lifecycle.room import Room, Transition, put_player
from server.store import Store
from tests.server._client import Client
from tests.server._players import Connect, Race, greedy_line, open_race, secret_deal, start

GAME = "little-forty"
SEED = secret_deal("records")
RATED = Settings(countdown_s=1, rated=True)
HOME = greedy_line(GAME, SEED)[0]
"""The deal's first greedy move puts a card home: one card ahead of a racer who moved none."""


class Accounts:
    """The accounts of a test, read straight from Redis under its key prefix."""

    def __init__(self, raw: Redis, prefix: str) -> None:
        self.raw, self.prefix = raw, prefix

    def key(self, account: str, part: str) -> str:
        return f"{self.prefix}{{a:{account}}}:{part}"

    async def create(self, *accounts: str) -> None:
        for account in accounts:
            await self.raw.hset(self.key(account, "account"), mapping={"name": account})

    async def history(self, account: str) -> list[HistoryEntry]:
        entries: list[Any] = await self.raw.lrange(self.key(account, "history"), 0, -1)
        return [unpack_history(entry) for entry in entries]

    async def races(self, account: str) -> int | None:
        stored = await self.raw.hget(self.key(account, "ratings"), GAME)
        return None if stored is None else int(msgpack.unpackb(stored)[2])


async def seat_accounts(
    server: RaceServer, race: Race, seats: Mapping[int, str], bots: frozenset[int] = frozenset()
) -> None:
    """Seat account `seats[seat]` in each seat given (as sign-in would), bots marked."""

    def change(room: Room) -> Transition:
        for seat, account in seats.items():
            room = put_player(room, replace(room.player(seat), account=account, bot=seat in bots))
        return Transition(room)

    await room_store.update(server.services.store, race.code, change)


async def rated_race(
    connect: Connect, server: RaceServer, accounts: Accounts, names: list[str], ids: list[str]
) -> Race:
    """`names` seated as accounts `ids` ('' for a guest) in a rated room, racing."""
    await accounts.create(*(account for account in ids if account))
    race = await open_race(connect, GAME, names, RATED, watchers=0)
    await seat_accounts(server, race, {s: a for s, a in enumerate(ids) if a})
    await start(race, SEED)
    return race


async def logged(store: Store, code: str, kind: str) -> list[bytes]:
    stored = await store.events_since(code, 0)
    assert stored is not None
    return [body for _, body in stored if kind.encode() in body]


def signing_in(open_: Connect, names: Sequence[str]) -> Connect:
    """Opens connections, each signed in as a new account of the next of `names`."""
    left = iter(names)

    async def signed_in() -> Client:
        client = await open_()
        made = await client.call(CreateAccount, name=next(left))
        assert made.type == "account_created", made
        return client

    return signed_in
