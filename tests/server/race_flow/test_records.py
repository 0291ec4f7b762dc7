"""A finished race in its accounts, over the wire: rated once, whoever settles it.

Accounts are seated by writing their id into the room's seats (what sign-in
does), with the account's record created in Redis; the races are scripted
clients on a pinned secret deal, so every outcome is known ahead.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import msgpack
import pytest
from redis.asyncio import Redis

from protocol import (
    CreateAccount,
    GetHistory,
    GetLeaderboard,
    GetProfile,
    HistoryEntry,
    RequestRematch,
    Settings,
    Sync,
)
from server import room_store
from server.accounts.codec import unpack_history
from server.app import RaceServer
from server.clock import ManualClock
from server.lifecycle.room import Room, Transition, put_player
from server.race_flow import deadlines, records
from server.store import Store, StoreUnavailable
from tests.server._client import Client
from tests.server._players import (
    FAST,
    Connect,
    Race,
    greedy_line,
    open_race,
    pin_secrets,
    race_over,
    secret_deal,
    serve,
    start,
)
from tests.server.conftest import ServerFactory, opened_clients

GAME = "little-forty"
SEED = secret_deal("records")
RATED = Settings(countdown_s=1, rated=True)
HOME = greedy_line(GAME, SEED)[0]
"""The deal's first greedy move puts a card home: one card ahead of a racer who moved none."""


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


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


@pytest.fixture
def accounts(raw: Redis, key_prefix: str) -> Accounts:
    return Accounts(raw, key_prefix)


async def _seat(
    server: RaceServer, race: Race, seats: Mapping[int, str], bots: frozenset[int] = frozenset()
) -> None:
    """Seat account `seats[seat]` in each seat given (as sign-in would), bots marked."""

    def change(room: Room) -> Transition:
        for seat, account in seats.items():
            room = put_player(room, replace(room.player(seat), account=account, bot=seat in bots))
        return Transition(room)

    await room_store.update(server.services.store, race.code, change)


async def _rated_race(
    connect: Connect, server: RaceServer, accounts: Accounts, names: list[str], ids: list[str]
) -> Race:
    """`names` seated as accounts `ids` ('' for a guest) in a rated room, racing."""
    await accounts.create(*(account for account in ids if account))
    race = await open_race(connect, GAME, names, RATED, watchers=0)
    await _seat(server, race, {s: a for s, a in enumerate(ids) if a})
    await start(race, SEED)
    return race


async def _events(store: Store, code: str, kind: str) -> list[bytes]:
    stored = await store.events_since(code, 0)
    assert stored is not None
    return [body for _, body in stored if kind.encode() in body]


async def test_a_rated_race_rates_both_accounts_once(
    store: Store, clock: ManualClock, accounts: Accounts
) -> None:
    async with serve(store, clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            race = await _rated_race(open_, server, accounts, ["Ann", "Bob"], ["a-ann", "a-bob"])
            ann, bob = race.racers
            await ann.play(HOME)
            await bob.resign()
            await ann.resign()
            over = await race_over(race)
            rated = await ann.client.wait_event("race_rated")
            assert await bob.client.wait_event("race_rated") == rated
            await records.record_race(server.services, race.code)
            await deadlines.on_deadline(server.services, race.code)
            snapshot = (await bob.client.call(Sync)).room
            assert len(await _events(store, race.code, "race_rated")) == 1
    (up, down) = rated.changes
    assert (up.seat, up.name, up.before, down.seat, down.before) == (0, "Ann", 1500, 1, 1500)
    assert up.after > 1500 > down.after and up.provisional and down.provisional
    assert snapshot.rating_changes == rated.changes
    assert [p.rating for p in snapshot.players] == [up.after, down.after]
    assert await accounts.races("a-ann") == await accounts.races("a-bob") == 1
    (ann_entry,) = await accounts.history("a-ann")
    (bob_entry,) = await accounts.history("a-bob")
    assert (ann_entry.place, ann_entry.racers, ann_entry.rated) == (1, 2, True)
    assert (ann_entry.rating_before, ann_entry.rating_after) == (1500, up.after)
    assert (bob_entry.place, bob_entry.rating_after, bob_entry.outcome) == (
        2,
        down.after,
        "resigned",
    )
    assert ann_entry.at_ms == over.start_at_ms and ann_entry.code == race.code
    assert ann_entry.deal_number is None and ann_entry.progress == 1 and ann_entry.moves == 1


async def test_an_exact_tie_gives_equal_changes(
    store: Store, clock: ManualClock, accounts: Accounts
) -> None:
    async with serve(store, clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            race = await _rated_race(open_, server, accounts, ["Ann", "Bob"], ["a-ann", "a-bob"])
            for racer in race.racers:
                await racer.resign()
            over = await race_over(race)
            rated = await race.racers[0].client.wait_event("race_rated")
    assert over.ranking[1].decided_by == "seat"
    first, second = rated.changes
    assert first.after - first.before == second.after - second.before
    places = [(await accounts.history(a))[0].place for a in ("a-ann", "a-bob")]
    assert places == [1, 1]


async def test_a_bot_and_a_guest_change_nobody_s_rating(
    store: Store, clock: ManualClock, accounts: Accounts
) -> None:
    """The same two accounts' order with and without a bot (seated as an account too)
    and a guest ahead of them gives the same changes."""
    async with serve(store, clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            await accounts.create("a-ann", "a-bob", "a-bot", "a-cyd", "a-dan")
            crowded = await open_race(open_, GAME, ["Botty", "Ann", "Guest", "Bob"], RATED, 0)
            await _seat(server, crowded, {0: "a-bot", 1: "a-ann", 3: "a-bob"}, frozenset({0}))
            await start(crowded, SEED)
            bot, ann, guest, bob = crowded.racers
            await bot.play_all(greedy_line(GAME, SEED)[:7])
            await ann.play(HOME)
            for racer in (bot, guest, bob, ann):
                await racer.resign()
            with_others = await ann.client.wait_event("race_rated")
            pair = await _rated_race(open_, server, accounts, ["Cyd", "Dan"], ["a-cyd", "a-dan"])
            await pair.racers[0].play(HOME)
            for racer in pair.racers:
                await racer.resign()
            alone = await pair.racers[0].client.wait_event("race_rated")
    moved = [(c.before, c.after) for c in with_others.changes]
    assert moved == [(c.before, c.after) for c in alone.changes]
    assert [c.seat for c in with_others.changes] == [1, 3]
    assert await accounts.history("a-bot") == [] and await accounts.races("a-bot") is None
    ann_entry = (await accounts.history("a-ann"))[0]
    assert (ann_entry.place, ann_entry.racers) == (2, 4)


async def test_a_rematch_right_after_the_race_records_it_first(
    store: Store,
    clock: ManualClock,
    accounts: Accounts,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing else records the race here (no background step, no deadline run):
    the rematch does, before it leaves the race behind."""

    async def nothing(*_: Any) -> None:
        return None

    monkeypatch.setattr(records, "after_race", lambda *_: None)
    monkeypatch.setattr(deadlines, "records", SimpleNamespace(record_race=nothing))
    async with serve(store, clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            race = await _rated_race(open_, server, accounts, ["Ann", "Bob"], ["a-ann", "a-bob"])
            ann, bob = race.racers
            await ann.play(HOME)
            await bob.resign()
            await ann.resign()
            await race_over(race)
            room, _, _ = await room_store.load(store, race.code)
            assert room.records_due
            assert (await ann.client.call(RequestRematch)).type == "ok"
            await bob.client.wait_event("rematch")
            lobby = (await bob.client.call(Sync)).room
            kinds = [e.type for e in bob.client.events() if e.type in {"race_rated", "rematch"}]
    assert kinds == ["race_rated", "rematch"]
    assert await accounts.races("a-ann") == await accounts.races("a-bob") == 1
    assert len(await accounts.history("a-ann")) == 1
    rated = bob.client.events("race_rated")[0]
    assert [p.rating for p in lobby.players] == [c.after for c in rated.changes]


async def test_a_process_killed_mid_settle_is_finished_for_by_another(
    open_store: Callable[..., Awaitable[Store]],
    start_server: ServerFactory,
    clock: ManualClock,
    accounts: Accounts,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first process records the race in one account, then dies; the second
    finds the room's deadline due and records the rest, each account once."""
    fast = {"rate_per_s": FAST.rate_per_s, "rate_burst": FAST.rate_burst}
    first = await start_server(await open_store(), **fast)
    second = await start_server(await open_store(), **fast)
    pin_secrets(first, SEED)
    applied: list[str] = []
    died = asyncio.Event()
    real = first.services.store.apply_record

    async def dying(account: str, *args: Any, **kwargs: Any) -> Any:
        if applied:
            died.set()
            raise StoreUnavailable("the process died here")
        applied.append(account)
        return await real(account, *args, **kwargs)

    monkeypatch.setattr(first.services.store, "apply_record", dying)
    async with opened_clients(Client.open, first) as open_:
        race = await _rated_race(open_, first, accounts, ["Ann", "Bob"], ["a-ann", "a-bob"])
        ann, bob = race.racers
        await ann.play(HOME)
        await bob.resign()
        await ann.resign()
        await race_over(race)
        async with asyncio.timeout(10):
            await died.wait()
        await first.stop()
    room, _, _ = await room_store.load(second.store, race.code)
    assert room.records_due and room.plan is not None
    done = {a: len(await accounts.history(a)) for a in ("a-ann", "a-bob")}
    assert sorted(done.values()) == [0, 1] and done[applied[0]] == 1
    retry_at = clock.now_ms() + round((FAST.deadline_lease_s + FAST.deadline_poll_s) * 1000)
    clock.advance_to(retry_at)
    async with asyncio.timeout(10):
        await second.poller.polled_since(retry_at)
    room, _, _ = await room_store.load(second.store, race.code)
    assert not room.records_due
    assert await accounts.races("a-ann") == await accounts.races("a-bob") == 1
    assert [len(await accounts.history(a)) for a in ("a-ann", "a-bob")] == [1, 1]
    assert len(await _events(second.store, race.code, "race_rated")) == 1
    assert room.plan is not None
    changed = {seat.account: seat.entry.rating_after for seat in room.plan.seats}
    assert changed["a-ann"] is not None and changed["a-ann"] > 1500
    assert await second.store.deadline_of(race.code) is None


async def test_signed_in_accounts_race_and_read_their_records_back(
    store: Store, clock: ManualClock
) -> None:
    """Accounts made over the wire race a rated race; their history, profiles and the
    game's board then show it (the readers of what the records wrote)."""
    async with serve(store, clock, leaderboard_min_races=1) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            names = iter(["Ann", "Bob"])

            async def signed_in() -> Client:
                client = await open_()
                made = await client.call(CreateAccount, name=next(names))
                assert made.type == "account_created", made
                return client

            race = await open_race(signed_in, GAME, ["Ann", "Bob"], RATED, watchers=0)
            await start(race, SEED)
            ann, bob = race.racers
            await ann.play(HOME)
            await bob.resign()
            await ann.resign()
            rated = await bob.client.wait_event("race_rated")
            reader = await open_()
            history = await reader.call(GetHistory, name="Bob")
            profile = (await reader.call(GetProfile, name="Ann")).profile
            board = await reader.call(GetLeaderboard, variant=GAME)
    up, down = rated.changes
    (entry,) = history.races
    assert (entry.place, entry.rating_before, entry.rating_after) == (2, 1500, down.after)
    (game,) = profile.ratings
    assert (game.variant, game.rating, game.races, game.provisional) == (GAME, up.after, 1, True)
    assert [(row.name, row.rating) for row in board.rows] == [
        ("Ann", up.after),
        ("Bob", down.after),
    ]
