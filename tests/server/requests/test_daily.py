"""Daily deals over real sockets, a real Valkey and a manual clock: one seed per game
and UTC day for every process, from a secret that never leaves the store; the day's
runs race as ghosts, one ranked attempt per account per game per day, and a streak."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
import logging
import urllib.request
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from protocol import ErrorCode, GetDaily, Leave, MakeMove, RaceDaily, Ready, Resign
from server.app import RaceServer
from server.clock import ManualClock
from server.race_flow import challenge_runs
from tests.conftest import OpenStore
from tests.server._client import Client
from tests.server._players import greedy_line, serve
from tests.server.conftest import opened_clients
from tests.server.race_flow._records import signing_in

GAME, OTHER = "little-forty", "little-milligan"
DAY_MS = 86_400_000
START_DAY = dt.date(2026, 1, 1)
"""The manual clock's first day."""


@pytest.fixture
async def raw(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


async def secret_of(raw: Redis, prefix: str) -> bytes:
    stored: Any = await raw.get(f"{prefix}daily:secret")
    assert stored is not None and len(stored) == 32
    return bytes(stored)


async def board(client: Client, variant: str = GAME, day: str | None = None) -> Any:
    reply = await client.call(GetDaily, variant=variant, day=day)
    assert reply.type == "daily_board", reply
    return reply


async def race_daily(client: Client, seed: bytes, moves: int, variant: str = GAME) -> str:
    """Race today's deal: `moves` greedy moves a second apart, then resign; the room."""
    earlier = client.events()

    def fresh(event: Any) -> bool:
        return all(event is not old for old in earlier)

    joined = await client.call(RaceDaily, variant=variant, name="Guest")
    assert joined.type == "joined", joined
    assert (await client.call(Ready, ready=True)).type == "ok"
    countdown = await client.wait_event("countdown", fresh)
    assert countdown.seed_commit == hashlib.sha256(seed).hexdigest()
    client.advance_to(countdown.start_at_ms)
    started = await client.wait_event("race_started", fresh)
    for index, text in enumerate(greedy_line(variant, seed)[:moves], start=1):
        client.advance_to(started.start_at_ms + index * 1000)
        reply = await client.call(
            MakeMove, move=text, move_id=f"m{index}", expected_version=index - 1
        )
        assert reply.type == "move_ok", reply
    assert (await client.call(Resign)).type == "ok"
    await client.wait_event("race_over", fresh)
    return str(joined.code)


def _read(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        body: bytes = answer.read()
        return body


def expected_seed(secret: bytes, day: dt.date, variant: str) -> bytes:
    return hmac.new(secret, f"{day.isoformat()}|{variant}|1".encode(), hashlib.sha256).digest()


async def test_one_seed_per_game_and_day_for_every_process_revealed_after_the_day(
    open_store: OpenStore, clock: ManualClock, raw: Redis, key_prefix: str
) -> None:
    async with (
        serve(await open_store(), clock) as one,
        serve(await open_store(), clock) as two,
        opened_clients(Client.open, one) as open_one,
        opened_clients(Client.open, two) as open_two,
    ):
        ann, bob = await open_one(), await open_two()
        today, elsewhere = await board(ann), await board(bob)
        other_game = await board(bob, OTHER)
        clock.advance_to(clock.now_ms() + DAY_MS)
        tomorrow = await board(ann)
        revealed = await board(bob, day=START_DAY.isoformat())
        future = await ann.call(GetDaily, variant=GAME, day="2026-01-03")
    secret = await secret_of(raw, key_prefix)
    assert today.challenge == elsewhere.challenge and today.day == "2026-01-01"
    assert today.challenge.code == "daily:little-forty:2026-01-01"
    assert today.challenge.seed is None and not today.challenge.closed
    commits = {today.challenge.seed_commit, other_game.challenge.seed_commit}
    commits.add(tomorrow.challenge.seed_commit)
    assert len(commits) == 3
    seed = expected_seed(secret, START_DAY, GAME)
    assert today.challenge.seed_commit == hashlib.sha256(seed).hexdigest()
    assert revealed.challenge.closed and revealed.challenge.seed == seed.hex()
    assert tomorrow.challenge.seed is None
    assert (future.type, future.code) == ("error", ErrorCode.CHALLENGE_NOT_FOUND)


async def test_the_secret_is_never_sent_logged_or_shown(
    race_server: RaceServer,
    connect: Any,
    raw: Redis,
    key_prefix: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    client = await connect()
    shown = await board(client)
    secret = await secret_of(raw, key_prefix)
    seed = expected_seed(secret, START_DAY, GAME)
    await race_daily(client, seed, 3)
    await board(client)
    base = f"http://127.0.0.1:{race_server.port}"
    pages = [await asyncio.to_thread(_read, base + path) for path in ("/readyz", "/metrics")]
    for blob in [*client.frames, *pages, caplog.text.encode()]:
        for form in (secret, secret.hex().encode(), secret.hex().upper().encode()):
            assert form not in blob
    assert shown.challenge.seed is None


async def test_one_ranked_attempt_per_game_and_day_and_a_streak(
    race_server: RaceServer, clock: ManualClock, raw: Redis, key_prefix: str
) -> None:
    services = race_server.services
    async with opened_clients(Client.open, race_server) as open_:
        signed_in = signing_in(open_, ["Annika", "Bobby"])
        ann, bob = await signed_in(), await signed_in()
        await board(ann)
        secret = await secret_of(raw, key_prefix)
        seed = expected_seed(secret, START_DAY, GAME)
        await challenge_runs.add_runs(services, await race_daily(ann, seed, 4))
        clock.advance_to(clock.now_ms() + 6 * 3_600_000)
        room = await race_daily(bob, seed, 2)
        ghosts = [e.name for e in bob.events("ghost_progress") if e.progress == 0]
        await challenge_runs.add_runs(services, room)
        await ann.call(Leave)
        await challenge_runs.add_runs(services, await race_daily(ann, seed, 4))
        await ann.call(Leave)
        other = expected_seed(secret, START_DAY, OTHER)
        await challenge_runs.add_runs(services, await race_daily(ann, other, 2, OTHER))
        day_one = await board(await open_())
        streak_one = (await board(ann)).streak
        clock.advance_to(clock.now_ms() + DAY_MS)
        await ann.call(Leave)
        second_seed = expected_seed(secret, START_DAY + dt.timedelta(days=1), GAME)
        await challenge_runs.add_runs(services, await race_daily(ann, second_seed, 1))
        streak_two = (await board(ann)).streak
        clock.advance_to(clock.now_ms() + 2 * DAY_MS)
        streak_gone = (await board(ann)).streak
        guest = (await board(await open_())).streak
    assert ghosts == ["Annika"]
    assert [r.name for r in day_one.challenge.runs] == ["Annika", "Bobby"]
    assert (day_one.challenge.total_runs, day_one.challenge.practice_runs) == (2, 1)
    assert (streak_one, streak_two, streak_gone, guest) == (1, 2, 0, None)
