"""Accounts over real sockets and a real Valkey: create, sign in, rename, delete, seats, reads.

Rated races are the ratings helper's; here their results are written straight into
Redis (ratings, history, best times, boards) to stand in for them.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgpack
import pytest
from redis.asyncio import Redis

from protocol import (
    CreateAccount,
    CreateRoom,
    DeleteAccount,
    ErrorCode,
    GetHistory,
    GetLeaderboard,
    GetProfile,
    HistoryEntry,
    JoinRoom,
    Ping,
    RenameAccount,
    SeatRating,
    SetSettings,
    Settings,
    SignIn,
)
from server.accounts.codec import pack_history
from server.accounts.names import name_digest
from server.app import RaceServer
from server.clock import ManualClock
from server.store import Store
from tests.server._client import Client
from tests.server.conftest import ServerFactory

Connect = Callable[[], Awaitable[Client]]
GAME = "little-forty"
OTHER_GAME = "little-milligan"
CYRILLIC_A = "\u0410"
RATING = msgpack.packb([30.0, 2.0, 3])
"""mu 30, sigma 2, 3 rated races: shown as 1500 + 20 x (30 - 6) = 1980, provisional."""


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


async def create(client: Client, name: str) -> Any:
    made = await client.call(CreateAccount, name=name)
    assert made.type == "account_created", made
    return made


async def refused(client: Client, expected: ErrorCode, kind: type[Any], **fields: Any) -> str:
    """Send a request that must be refused with `expected`; the connection stays open."""
    reply = await client.call(kind, **fields)
    assert (reply.type, reply.code) == ("error", expected), reply
    assert (await client.call(Ping)).type == "pong"
    return str(reply.message)


async def account_id(store: Store, key: str) -> str:
    """The id of the account `key` signs in (the tests write its records by id)."""
    found = await store.account_by_key(hashlib.sha256(key.encode()).hexdigest())
    assert found is not None
    return found.account_id


async def test_an_account_is_made_once_and_its_key_signs_in_elsewhere(
    connect: Connect, clock: ManualClock
) -> None:
    first, second = await connect(), await connect()
    made = await create(first, "Ada")
    assert (made.account.name, made.account.created_ms) == ("Ada", clock.now_ms())
    assert len(made.key) >= 32
    signed = await second.call(SignIn, key=made.key)
    assert signed.type == "signed_in"
    assert signed.account == made.account


async def test_a_wrong_key_and_an_unknown_key_are_refused_alike(connect: Connect) -> None:
    client = await connect()
    made = await create(client, "Ada")
    wrong = await refused(client, ErrorCode.ACCOUNT_BAD_KEY, SignIn, key=made.key[:-1] + "x")
    unknown = await refused(client, ErrorCode.ACCOUNT_BAD_KEY, SignIn, key="k" * 32)
    assert wrong == unknown


@pytest.mark.parametrize("other", ["ADA", "ada", "\uff21\uff44\uff41"])
async def test_a_name_is_taken_across_case_and_width(connect: Connect, other: str) -> None:
    await create(await connect(), "Ada")
    text = await refused(await connect(), ErrorCode.ACCOUNT_NAME_TAKEN, CreateAccount, name=other)
    assert "looks like it" in text


async def test_confusable_names_are_refused(connect: Connect) -> None:
    await create(await connect(), "Ape")
    client = await connect()
    mixed = await refused(client, ErrorCode.ACCOUNT_BAD_NAME, CreateAccount, name=f"{CYRILLIC_A}pe")
    assert "mixes Cyrillic and Latin" in mixed
    all_cyrillic = "\u0410\u0440\u0435"
    await refused(client, ErrorCode.ACCOUNT_NAME_TAKEN, CreateAccount, name=all_cyrillic)


@pytest.mark.parametrize(
    ("name", "says"),
    [("Ada!", "'!' (U+0021) is not allowed"), ("Ada  L", "a space may only stand alone")],
)
async def test_a_bad_name_gets_a_clear_error(connect: Connect, name: str, says: str) -> None:
    text = await refused(await connect(), ErrorCode.ACCOUNT_BAD_NAME, CreateAccount, name=name)
    assert says in text


async def test_rename_frees_the_old_name(connect: Connect) -> None:
    owner, other = await connect(), await connect()
    await create(owner, "Ada")
    renamed = await owner.call(RenameAccount, name="Grace")
    assert (renamed.type, renamed.account.name) == ("signed_in", "Grace")
    await refused(other, ErrorCode.ACCOUNT_NOT_FOUND, GetProfile, name="Ada")
    assert (await other.call(GetProfile, name="grace")).profile.name == "Grace"
    await create(other, "Ada")
    await refused(owner, ErrorCode.ACCOUNT_NAME_TAKEN, RenameAccount, name="ADA")


async def test_requests_of_an_account_need_a_signed_in_connection(connect: Connect) -> None:
    client = await connect()
    await refused(client, ErrorCode.ACCOUNT_NOT_SIGNED_IN, RenameAccount, name="Grace")
    await refused(client, ErrorCode.ACCOUNT_NOT_SIGNED_IN, DeleteAccount, name="Grace")


async def test_delete_removes_every_key_of_the_account(
    connect: Connect, store: Store, raw: Redis, key_prefix: str
) -> None:
    owner, other = await connect(), await connect()
    made = await create(owner, "Ada")
    ada = await account_id(store, made.key)
    bob = await account_id(store, (await create(other, "Bob")).key)
    index = store._names.index
    for who in (ada, bob):
        keys = store._names.account(who)
        await raw.hset(keys.ratings, GAME, RATING)
        await raw.lpush(keys.history, pack_history(_entry(GAME)))
        await raw.hset(keys.best, f"{GAME}:3", msgpack.packb([50_000, 1_000]))
        await raw.set(keys.done("QX7K2M:1:1000"), "1", ex=86_400)
        await raw.zadd(index.board(GAME), {who: 24.0})
        await raw.zadd(index.deal(GAME, 3), {who: 50_000})
    before = {key.decode() async for key in raw.scan_iter(match=key_prefix + "*")}
    assert any(f"{{a:{ada}}}" in key for key in before)

    await refused(owner, ErrorCode.ACCOUNT_CONFIRM, DeleteAccount, name="Bob")
    assert (await owner.call(DeleteAccount, name="ada")).type == "ok"

    after = {key.decode() async for key in raw.scan_iter(match=key_prefix + "*")}
    assert not any(ada in key for key in after)
    key_digest = hashlib.sha256(made.key.encode()).hexdigest()
    assert {index.name(name_digest("Ada")), index.key(key_digest)} <= before - after
    assert not any(ada.encode() in member for member in await raw.zrange(index.board(GAME), 0, -1))
    assert await raw.zrange(index.deal(GAME, 3), 0, -1) == [bob.encode()]
    await refused(owner, ErrorCode.ACCOUNT_NOT_SIGNED_IN, RenameAccount, name="Ada")
    await refused(other, ErrorCode.ACCOUNT_BAD_KEY, SignIn, key=made.key)
    await create(other, "Ada")  # the name is free again


async def test_a_guest_cannot_take_an_accounts_name_in_a_room(connect: Connect) -> None:
    await create(await connect(), "Ada")
    host, guest = await connect(), await connect()
    text = await refused(
        host,
        ErrorCode.ACCOUNT_NAME_TAKEN,
        CreateRoom,
        variant=GAME,
        name="ADA",
        settings=Settings(),
    )
    assert "sign in or pick another name" in text
    room = await host.call(CreateRoom, variant=GAME, name="Host", settings=Settings())
    for name in ("Ada", f"{CYRILLIC_A}da"):
        await refused(guest, ErrorCode.ACCOUNT_NAME_TAKEN, JoinRoom, code=room.code, name=name)
    assert (await guest.call(JoinRoom, code=room.code, name="Adam")).type == "joined"


async def test_a_signed_in_seat_shows_the_account_and_its_rating(
    connect: Connect, store: Store, raw: Redis
) -> None:
    host, player = await connect(), await connect()
    made = await create(player, "Ada")
    await raw.hset(store._names.account(await account_id(store, made.key)).ratings, GAME, RATING)
    room = await host.call(CreateRoom, variant=GAME, name="Host", settings=Settings())
    joined = await player.call(JoinRoom, code=room.code, name="anything")
    seat = joined.room.players[1]
    assert (seat.name, seat.account, seat.bot) == ("Ada", True, False)
    assert (seat.rating, seat.provisional) == (1980, True)
    event = await host.wait_event("player_joined", lambda e: e.seat == 1)
    assert (event.name, event.account, event.rating, event.provisional) == ("Ada", True, 1980, True)
    guest = joined.room.players[0]
    assert (guest.name, guest.account, guest.rating) == ("Host", False, None)


async def test_a_bot_is_never_seated_as_an_account(connect: Connect) -> None:
    host, bot = await connect(), await connect()
    await create(bot, "Ada")
    room = await host.call(CreateRoom, variant=GAME, name="Host", settings=Settings())
    joined = await bot.call(JoinRoom, code=room.code, name="Robo", bot=True)
    seat = joined.room.players[1]
    assert (seat.name, seat.account, seat.bot, seat.rating) == ("Robo", False, True, None)


async def test_new_settings_carry_each_accounts_rating_for_the_new_game(
    connect: Connect, store: Store, raw: Redis
) -> None:
    host = await connect()
    made = await create(host, "Ada")
    await raw.hset(
        store._names.account(await account_id(store, made.key)).ratings, OTHER_GAME, RATING
    )
    room = await host.call(CreateRoom, variant=GAME, name="x", settings=Settings())
    creator = room.room.players[0]
    assert (creator.name, creator.account, creator.rating) == ("Ada", True, None)
    assert (await host.call(SetSettings, variant=OTHER_GAME, settings=Settings())).type == "ok"
    changed = await host.wait_event("settings", lambda e: e.variant == OTHER_GAME)
    assert changed.ratings == (SeatRating(seat=0, rating=1980, provisional=True),)
    assert (await host.call(SetSettings, variant=GAME, settings=Settings())).type == "ok"
    back = await host.wait_event("settings", lambda e: e.variant == GAME)
    assert back.ratings == ()


async def test_account_creation_and_sign_in_spend_join_attempts(
    store: Store, start_server: ServerFactory, clock: ManualClock
) -> None:
    server: RaceServer = await start_server(store, joins_per_minute=6.0, joins_burst=2)
    client = await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)
    made = await create(client, "Ada")
    await refused(client, ErrorCode.ACCOUNT_BAD_KEY, SignIn, key="k" * 32)
    text = await refused(client, ErrorCode.PROTO_RATE_LIMITED, SignIn, key=made.key)
    assert "join attempts" in text
    await refused(client, ErrorCode.PROTO_RATE_LIMITED, CreateAccount, name="Bob")
    clock.advance(10_000)
    assert (await client.call(SignIn, key=made.key)).type == "signed_in"
    await client.close()


def _entry(variant: str, race_no: int = 1) -> HistoryEntry:
    return HistoryEntry(
        at_ms=1_000 * race_no,
        variant=variant,
        code="QX7K2M",
        race_no=race_no,
        deal_number=3,
        rated=False,
        practice=False,
        place=1,
        racers=2,
        outcome="won",
        progress=40,
        elapsed_ms=50_000,
        moves=120,
    )


async def test_history_pages_by_game_and_profile(
    connect: Connect, store: Store, raw: Redis
) -> None:
    client = await connect()
    made = await create(client, "Ada")
    keys = store._names.account(await account_id(store, made.key))
    for race_no in range(1, 6):
        await raw.lpush(
            keys.history, pack_history(_entry(GAME if race_no % 2 else OTHER_GAME, race_no))
        )
    await raw.hset(keys.best, f"{GAME}:3", msgpack.packb([50_000, 1_000]))
    page = await client.call(GetHistory, name="ada", variant=GAME, limit=2)
    assert [race.race_no for race in page.races] == [5, 3]
    rest = await client.call(GetHistory, name="ada", variant=GAME, before=page.next_before, limit=2)
    assert ([race.race_no for race in rest.races], rest.next_before) == ([1], None)
    everything = await client.call(GetHistory, name="Ada", limit=10)
    assert [race.race_no for race in everything.races] == [5, 4, 3, 2, 1]
    profile = (await client.call(GetProfile, name="ADA")).profile
    assert [race.race_no for race in profile.recent] == [5, 4, 3, 2, 1]
    assert [(b.variant, b.deal_number, b.elapsed_ms) for b in profile.best] == [(GAME, 3, 50_000)]
    await refused(client, ErrorCode.ACCOUNT_NOT_FOUND, GetHistory, name="Nobody")


async def test_leaderboards_by_rating_and_by_deal(
    connect: Connect, store: Store, raw: Redis
) -> None:
    client = await connect()
    index = store._names.index
    for name, mu in (("Ada", 30.0), ("Bob", 35.0)):
        who = await account_id(store, (await create(await connect(), name)).key)
        await raw.hset(store._names.account(who).ratings, GAME, msgpack.packb([mu, 2.0, 9]))
        await raw.zadd(index.board(GAME), {who: mu - 6})
        await raw.zadd(index.deal(GAME, 3), {who: int(mu * 1000)})
    board = await client.call(GetLeaderboard, variant=GAME)
    assert (board.total, board.min_races) == (2, 5)
    rows = [(r.place, r.name, r.rating, r.provisional, r.races) for r in board.rows]
    assert rows == [(1, "Bob", 2080, False, 9), (2, "Ada", 1980, False, 9)]
    deal = await client.call(GetLeaderboard, variant=GAME, deal_number=3, offset=1)
    assert deal.total == 2
    assert [(r.place, r.name, r.elapsed_ms) for r in deal.rows] == [(2, "Bob", 35_000)]


async def test_signing_in_again_finishes_a_delete_that_stopped(
    connect: Connect, store: Store, raw: Redis, key_prefix: str
) -> None:
    client = await connect()
    made = await create(client, "Ada")
    ada = await account_id(store, made.key)
    await raw.hset(store._names.account(ada).account, "deleting", "1")  # stopped right there
    again = await connect()
    await refused(again, ErrorCode.ACCOUNT_NOT_FOUND, GetProfile, name="Ada")
    assert (await again.call(SignIn, key=made.key)).type == "signed_in"
    assert (await again.call(DeleteAccount, name="Ada")).type == "ok"
    assert [key async for key in raw.scan_iter(match=key_prefix + "*")] == []
