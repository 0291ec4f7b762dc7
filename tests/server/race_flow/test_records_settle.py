"""Whoever settles a race records it, once: the rematch right after it, or another
process after the one that closed it died part way."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import pytest

from protocol import RequestRematch, Sync
from server import room_store
from server.clock import ManualClock
from server.race_flow import deadlines, records
from server.store import Store, StoreUnavailable
from tests.server._client import Client
from tests.server._players import FAST, pin_secrets, race_over, serve
from tests.server.conftest import ServerFactory, opened_clients
from tests.server.race_flow._records import HOME, SEED, Accounts, logged, rated_race


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
            race = await rated_race(open_, server, accounts, ["Ann", "Bob"], ["a-ann", "a-bob"])
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
        race = await rated_race(open_, first, accounts, ["Ann", "Bob"], ["a-ann", "a-bob"])
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
    assert len(await logged(second.store, race.code, "race_rated")) == 1
    assert room.plan is not None
    changed = {seat.account: seat.entry.rating_after for seat in room.plan.seats}
    assert changed["a-ann"] is not None and changed["a-ann"] > 1500
    assert await second.store.deadline_of(race.code) is None
