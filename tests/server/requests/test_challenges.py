"""Challenges over real sockets, a real Valkey and a manual clock: a finished race
turned into a challenge, its runs kept with the server's stamps, the seed and the
moves kept secret until it closes, then every run replays to its recorded result."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest
from redis.asyncio import Redis

import engine
from protocol import (
    CloseChallenge,
    CreateChallenge,
    ErrorCode,
    GetChallenge,
    Ping,
    Settings,
    decode_server,
    limits,
)
from server.app import RaceServer
from server.challenges.records import DAY_MS
from server.clock import ManualClock
from server.requests.challenges import RETENTION_MS
from server.store._keys import StoreKeys
from tests.conftest import OpenStore
from tests.server._client import Client
from tests.server._players import (
    Connect,
    open_race,
    pin_secrets,
    race_over,
    serve,
    start,
)
from tests.server.conftest import opened_clients
from tests.server.requests._challenges import (
    GAME,
    LINE,
    SEED,
    finished_race,
    replays_to_its_result,
)


@pytest.fixture
async def connect(race_server: RaceServer) -> AsyncIterator[Connect]:
    """Clients of the test's server, whose secret deals are all `SEED`."""
    pin_secrets(race_server, SEED)
    async with opened_clients(Client.open, race_server) as open_:
        yield open_


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


async def refused(client: Client, expected: ErrorCode, kind: type[Any], **fields: Any) -> None:
    reply = await client.call(kind, **fields)
    assert (reply.type, reply.code) == ("error", expected), reply
    assert (await client.call(Ping)).type == "pong"


async def test_a_finished_race_becomes_a_challenge_that_hides_its_deal(
    connect: Connect, clock: ManualClock
) -> None:
    race, over = await finished_race(connect, clock)
    ann, bob = race.racers
    made = await ann.client.call(CreateChallenge, days=3)
    assert made.type == "challenge_created" and made.key is not None
    info = made.challenge
    assert (info.variant, info.deal_number, info.closed, info.seed) == (GAME, None, False, None)
    assert info.seed_commit == over.seed_commit
    assert info.closes_at_ms == info.created_ms + 3 * DAY_MS == clock.now_ms() + 3 * DAY_MS
    assert [(r.name, r.place, r.original, r.guest) for r in info.runs] == [
        ("Ann", 1, True, True),
        ("Bob", 2, True, True),
    ]
    by_name = {line.name: line for line in over.ranking}
    for run in info.runs:
        recorded = by_name[run.name]
        assert (run.outcome, run.progress, run.moves) == (
            "resigned",
            recorded.progress,
            recorded.moves,
        )
        assert run.progress_ms == recorded.progress_at_ms - over.start_at_ms
        assert run.elapsed_ms == recorded.elapsed_ms and run.log == ()
    again = await bob.client.call(CreateChallenge)
    assert again.type == "challenge_created" and again.key is None
    assert again.challenge == info
    stranger = await connect()
    seen = await stranger.call(GetChallenge, code=info.code)
    assert seen.challenge == info
    sent = [line.move for line in over.ranking[0].log]
    assert not any(entry.move in sent for run in seen.challenge.runs for entry in run.log)


async def test_behind_compares_runs_at_the_same_cards_home(
    connect: Connect, clock: ManualClock
) -> None:
    race, over = await finished_race(connect, clock)
    info = (await race.racers[0].client.call(CreateChallenge)).challenge
    first, second = info.runs
    both = min(first.progress, second.progress)
    assert both >= 1 and first.behind_ms is None
    reached: dict[str, list[int]] = {}
    for line in over.ranking:
        state, times = engine.new_game(GAME, SEED), list[int]()
        for entry in line.log:
            state = engine.apply(state, engine.Move.parse(entry.move))
            times += [entry.at_ms - over.start_at_ms] * (engine.progress(state) - len(times))
        reached[line.name] = times
    assert second.behind_ms == reached["Bob"][both - 1] - reached["Ann"][both - 1]


async def test_only_a_racer_of_a_finished_race_makes_its_challenge(
    connect: Connect, clock: ManualClock
) -> None:
    outside = await connect()
    await refused(outside, ErrorCode.CHALLENGE_NOT_RACED, CreateChallenge)
    race = await open_race(connect, GAME, ["Ann"], Settings(countdown_s=1), watchers=1)
    await refused(race.racers[0].client, ErrorCode.CHALLENGE_NOT_RACED, CreateChallenge)
    await start(race, SEED)
    await refused(race.racers[0].client, ErrorCode.CHALLENGE_NOT_RACED, CreateChallenge)
    await race.racers[0].resign()
    await race_over(race)
    await refused(race.watchers[0], ErrorCode.CHALLENGE_NOT_RACED, CreateChallenge)
    await refused(outside, ErrorCode.CHALLENGE_NOT_FOUND, GetChallenge, code="ZZZZZZ")
    too_long = {"type": "create_challenge", "id": 9000, "days": limits.MAX_CHALLENGE_DAYS + 1}
    answers: list[Any] = await race.racers[0].client.answers_to(msgpack.packb(too_long))
    (answer,) = answers
    assert (answer.type, answer.code) == ("error", ErrorCode.PROTO_INVALID), answer


async def test_the_creator_closes_it_and_every_run_replays(
    connect: Connect, clock: ManualClock, raw: Redis, key_prefix: str
) -> None:
    race, over = await finished_race(connect, clock, ann_moves=len(LINE))
    assert over.ranking[0].outcome == "won"
    ann, bob = race.racers
    made = await ann.client.call(CreateChallenge)
    code = made.challenge.code
    keys = [f"{key_prefix}{{c:{code}}}:{part}" for part in ("challenge", "runs", "logs")]
    for key in keys:
        kept = 7 * DAY_MS + RETENTION_MS
        assert kept - 10_000 < await raw.pttl(key) <= kept
    await refused(bob.client, ErrorCode.CHALLENGE_BAD_KEY, CloseChallenge, code=code, key="x" * 32)
    race.advance_to(clock.now_ms() + 60_000)
    closed = await bob.client.call(CloseChallenge, code=code, key=made.key)
    info = closed.challenge
    assert info.closed and info.seed == SEED.hex() and info.closes_at_ms == clock.now_ms()
    replays_to_its_result(info)
    logs = {line.name: line.log for line in over.ranking}
    assert all(run.log == logs[run.name] for run in info.runs)
    for key in keys:
        assert RETENTION_MS - 10_000 < await raw.pttl(key) <= RETENTION_MS
    race.advance_to(clock.now_ms() + 60_000)
    assert (await ann.client.call(CloseChallenge, code=code, key=made.key)).challenge == info


async def test_it_closes_by_itself_when_its_days_are_up(
    connect: Connect, clock: ManualClock
) -> None:
    race, _ = await finished_race(connect, clock)
    made = await race.racers[0].client.call(CreateChallenge, days=1)
    stranger = await connect()
    race.advance_to(made.challenge.closes_at_ms - 1)
    early = (await stranger.call(GetChallenge, code=made.challenge.code)).challenge
    assert (early.closed, early.seed) == (False, None)
    race.advance_to(made.challenge.closes_at_ms)
    late = (await stranger.call(GetChallenge, code=made.challenge.code)).challenge
    assert late.closed and late.closes_at_ms == made.challenge.closes_at_ms
    replays_to_its_result(late)


async def test_a_challenge_outlives_its_room_and_a_server_restart(
    open_store: OpenStore, clock: ManualClock, raw: Redis, key_prefix: str
) -> None:
    async with serve(await open_store(), clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            race, _ = await finished_race(open_, clock)
            made = await race.racers[0].client.call(CreateChallenge)
    room_keys = [
        key async for key in raw.scan_iter(StoreKeys(key_prefix).room(race.code).base + "*")
    ]
    await raw.delete(*room_keys)
    restarted = serve(await open_store(), clock)
    async with restarted as again, opened_clients(Client.open, again) as open_:
        stranger = await open_()
        assert (
            await stranger.call(GetChallenge, code=made.challenge.code)
        ).challenge == made.challenge


async def test_a_racer_makes_the_challenge_from_outside_with_its_token(
    connect: Connect, clock: ManualClock
) -> None:
    race, _ = await finished_race(connect, clock)
    host = race.racers[0].client
    replies = [decode_server(frame) for frame in host.frames]
    token = next(reply.token for reply in replies if reply.type == "joined")
    elsewhere = await connect()
    bad = {"room": race.code, "token": "x" * len(token)}
    await refused(elsewhere, ErrorCode.CHALLENGE_NOT_RACED, CreateChallenge, **bad)
    made = await elsewhere.call(CreateChallenge, room=race.code, token=token)
    again = await host.call(CreateChallenge)
    assert made.type == "challenge_created" and made.key is not None, made
    assert (again.challenge.code, again.key) == (made.challenge.code, None)
