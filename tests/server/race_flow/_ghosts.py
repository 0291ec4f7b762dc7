"""Racing a challenge in tests: join, start, tick the clock through the ghosts' steps."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import engine
from protocol import (
    CreateChallenge,
    GetChallenge,
    JoinChallenge,
    MakeMove,
    RaceOver,
    Ready,
    Resign,
    decode_server,
)
from server.clock import ManualClock
from server.store import Store
from tests.server._client import Client
from tests.server._players import Connect, Race, pin_secrets, serve
from tests.server.conftest import opened_clients
from tests.server.requests._challenges import GAME, SEED, STEP_MS, finished_race

TICK_MS = 250
"""How far the test moves the clock at a time: each ghost step must arrive within one."""

Step = tuple[int, int, int, int, str]
"""A ghost event as expected: race time, ghost, cards home, moves, outcome."""


@asynccontextmanager
async def challenge_made(
    store: Store, clock: ManualClock
) -> AsyncIterator[tuple[Connect, Race, RaceOver, str]]:
    """A server on `store` with a finished race turned into a challenge: a way to
    connect, the race, its ``race_over`` and the challenge's code."""
    async with serve(store, clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            race, over = await finished_race(open_, clock)
            code = (await race.racers[0].client.call(CreateChallenge)).challenge.code
            yield open_, race, over, code


def expected_steps(over: RaceOver, seed: bytes = SEED) -> list[Step]:
    """Each original run (of `GAME` dealt `seed`) replayed by hand: race time 0, every
    change of cards home (with the moves made by then), the finish; ghosts numbered
    best first."""
    steps: list[Step] = []
    for ghost, line in enumerate(over.ranking):
        state, home = engine.new_game(GAME, seed), 0
        shown: dict[int, tuple[int, int, str]] = {0: (0, 0, "playing")}
        for made, entry in enumerate(line.log, start=1):
            state = engine.apply(state, engine.Move.parse(entry.move))
            if engine.progress(state) != home:
                home = engine.progress(state)
                shown[entry.at_ms - over.start_at_ms] = (home, made, "playing")
        shown[line.elapsed_ms] = (line.progress, line.moves, line.outcome)
        steps += [(at, ghost, *values) for at, values in shown.items()]
    return sorted(steps)


async def race_challenge(
    client: Client, code: str, name: str = "Cid", ghosts: tuple[str, ...] = ()
) -> tuple[Any, Any]:
    """Join the challenge (racing the runs of `ghosts`, if named), ready, and start:
    the ``joined`` reply and ``race_started``."""
    earlier = client.events()

    def fresh(event: Any) -> bool:
        return all(event is not old for old in earlier)

    joined = await client.call(JoinChallenge, code=code, name=name, ghosts=ghosts)
    assert joined.type == "joined" and joined.seat == 0, joined
    assert (await client.call(Ready, ready=True)).type == "ok"
    countdown = await client.wait_event("countdown", fresh)
    client.advance_to(countdown.start_at_ms)
    return joined, await client.wait_event("race_started", fresh)


async def tick_through(client: Client, start_ms: int, steps: list[Step]) -> None:
    """Wait for the ghost events due now, then move the clock `TICK_MS` and again,
    until the last step has arrived."""
    seen = 0
    while True:
        due = [s for s in steps if start_ms + s[0] <= client.clock.now_ms()]
        for at, ghost, *_ in due[seen:]:
            await client.wait_event("ghost_progress", _is_step(start_ms + at, ghost))
        seen = len(due)
        if seen == len(steps):
            return
        client.advance_to(client.clock.now_ms() + TICK_MS)


def _is_step(at_ms: int, ghost: int) -> Callable[[Any], bool]:
    return lambda event: (event.at_ms, event.ghost) == (at_ms, ghost)


def ghost_frames(client: Client) -> list[tuple[int, Any]]:
    """Every ghost event the client got, with the server clock when it arrived."""
    frames = []
    for arrived, frame in zip(client.arrived_ms, client.frames, strict=True):
        message = decode_server(frame)
        if message.type == "event" and message.event.type == "ghost_progress":
            frames.append((arrived, message.event))
    return frames


async def run_once(client: Client, code: str, moves: list[str]) -> str:
    """Race the challenge: `moves` a clock step apart, then resign, and see the run
    into the standings; the challenge room's code."""
    earlier = client.events()
    joined, started = await race_challenge(client, code)
    for index, text in enumerate(moves, start=1):
        client.advance_to(started.start_at_ms + index * STEP_MS)
        move_id = f"c{index}"
        reply = await client.call(MakeMove, move=text, move_id=move_id, expected_version=index - 1)
        assert reply.type == "move_ok", reply
    assert (await client.call(Resign)).type == "ok"
    await client.wait_event("race_over", lambda e: all(e is not old for old in earlier))
    return str(joined.code)


async def standings(client: Client, code: str) -> Any:
    reply = await client.call(GetChallenge, code=code)
    assert reply.type == "challenge", reply
    return reply.challenge
