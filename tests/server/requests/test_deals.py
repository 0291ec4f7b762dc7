"""Winnable-only rooms: every new deal is a seed drawn from the pool, dealt once."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

import engine
from protocol import (
    CreateRoom,
    ErrorCode,
    JoinRoom,
    Ready,
    RequestRematch,
    Resign,
    SetSettings,
    Settings,
    Sync,
)
from server.store import Store
from tests.server._client import Client, count_down
from tests.server._players import board_of

Connect = Callable[[], Awaitable[Client]]
GAME = "little-milligan"
WINNABLE = Settings(countdown_s=1, winnable_only=True)
POOL = [b"winnable one".ljust(32, b"."), b"winnable two".ljust(32, b".")]


async def _level(store: Store, game: str = GAME) -> int:
    return (await store.winnable_counts([game]))[game]


async def _refused(client: Client, code: ErrorCode, kind: Any, **fields: Any) -> str:
    reply = await client.call(kind, **fields)
    assert reply.type == "error" and reply.code == code, reply
    message: str = reply.message
    return message


async def _race_to_the_end(host: Client, race_no: int) -> Any:
    """The host alone readies, races and resigns; the race's ``race_over``."""
    assert (await host.call(Ready, ready=True)).type == "ok"
    countdown = await host.wait_event("countdown", lambda e: e.race_no == race_no)
    host.advance_to(countdown.start_at_ms)
    await host.wait_event("race_started", lambda e: e.race_no == race_no)
    assert (await host.call(Resign)).type == "ok"
    over = await host.wait_event("race_over", lambda e: e.race_no == race_no)
    assert over.seed_commit == countdown.seed_commit
    assert hashlib.sha256(bytes.fromhex(over.seed)).hexdigest() == over.seed_commit
    return over


async def test_each_race_reveals_a_pool_seed_and_the_pool_shrinks_by_one(
    connect: Connect, store: Store
) -> None:
    await store.add_winnable(GAME, POOL)
    host = await connect()
    created = await host.call(CreateRoom, variant=GAME, name="Ann", settings=WINNABLE)
    assert created.type == "joined" and created.room.settings.winnable_only
    assert await _level(store) == 1
    first = await _race_to_the_end(host, 1)
    assert (await host.call(RequestRematch)).type == "ok"
    assert await _level(store) == 0
    second = await _race_to_the_end(host, 2)
    assert sorted([bytes.fromhex(first.seed), bytes.fromhex(second.seed)]) == sorted(POOL)


async def test_an_empty_pool_refuses_and_nothing_changes(connect: Connect, store: Store) -> None:
    host = await connect()
    text = await _refused(host, ErrorCode.ROOM_NO_WINNABLE_DEAL, CreateRoom, **_room(WINNABLE))
    assert f"fill-pool --game {GAME}" in text and "winnable-only off" in text
    await store.add_winnable(GAME, POOL[:1])
    assert (await host.call(CreateRoom, **_room(WINNABLE))).type == "joined"
    await _race_to_the_end(host, 1)
    text = await _refused(host, ErrorCode.ROOM_NO_WINNABLE_DEAL, RequestRematch)
    assert "for a rematch: ask again" in text and f"fill-pool --game {GAME}" in text
    snapshot = await host.call(Sync)
    assert snapshot.room.phase == "finished" and snapshot.room.race_no == 1


async def test_turning_winnable_only_on_or_changing_its_game_draws_a_new_seed(
    connect: Connect, store: Store
) -> None:
    host, guest = await connect(), await connect()
    plain = Settings(countdown_s=1)
    created = await host.call(CreateRoom, **_room(plain))
    await guest.call(JoinRoom, code=created.code, name="Bob")
    on = {"variant": GAME, "settings": WINNABLE}
    await _refused(guest, ErrorCode.ROOM_NOT_HOST, SetSettings, **on)
    await _refused(host, ErrorCode.ROOM_NO_WINNABLE_DEAL, SetSettings, **on)
    assert not (await host.call(Sync)).room.settings.winnable_only
    await store.add_winnable(GAME, POOL)
    await store.add_winnable("little-forty", POOL)
    await _refused(guest, ErrorCode.ROOM_NOT_HOST, SetSettings, **on)
    await _refused(host, ErrorCode.ROOM_WRONG_PHASE, RequestRematch)
    alone = WINNABLE.model_copy(update={"max_players": 1})
    await _refused(host, ErrorCode.ROOM_BAD_SETTINGS, SetSettings, variant=GAME, settings=alone)
    assert await _level(store) == 2, "a seed drawn for a refused request goes back"
    assert (await host.call(SetSettings, **on)).type == "ok"
    assert await _level(store) == 1
    fewer = WINNABLE.model_copy(update={"max_players": 3})
    assert (await host.call(SetSettings, variant=GAME, settings=fewer)).type == "ok"
    assert await _level(store) == 1
    assert (await host.call(SetSettings, variant="little-forty", settings=fewer)).type == "ok"
    assert (await _level(store), await _level(store, "little-forty")) == (1, 1)


async def test_a_winnable_only_race_is_dealt_its_seed(connect: Connect, store: Store) -> None:
    """The racers' deal is the drawn seed's game, as the countdown's commit promised."""
    await store.add_winnable(GAME, POOL[:1])
    host = await connect()
    await host.call(CreateRoom, **_room(WINNABLE))
    assert (await host.call(Ready, ready=True)).type == "ok"
    started = await count_down(host)
    commit = hashlib.sha256(POOL[0]).hexdigest()
    assert (await host.call(Sync)).room.seed_commit == commit
    assert started.board == board_of(engine.new_game(GAME, POOL[0]))


def _room(settings: Settings) -> dict[str, Any]:
    return {"variant": GAME, "name": "Ann", "settings": settings}
