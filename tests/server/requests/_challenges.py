"""Challenge tests' shared race: two racers on a pinned secret deal, a clock step
between moves, so every run's race times are known ahead."""

from __future__ import annotations

import hashlib

import engine
from protocol import ChallengeCreated, ChallengeInfo, CreateChallenge, JoinRoom, RaceOver, Settings
from server.app import RaceServer
from server.clock import ManualClock
from tests.server._client import Client
from tests.server._players import (
    Connect,
    Race,
    greedy_line,
    open_race,
    pin_secrets,
    race_over,
    secret_deal,
    start,
)
from tests.server.conftest import opened_clients

GAME = "little-forty"
SEED = secret_deal("c1")
LINE = greedy_line(GAME, SEED)
"""The greedy player's winning line on `SEED`: two cards home after its third move."""
STEP_MS = 1_500


async def finished_race(
    connect: Connect,
    clock: ManualClock,
    ann_moves: int = 4,
    settings: Settings | None = None,
    watcher: Client | None = None,
) -> tuple[Race, RaceOver]:
    """Ann plays `ann_moves` greedy moves and Bob two, a clock step apart, then
    whoever is still racing resigns (the whole line wins the deal); `watcher`
    watches the room from before the start."""
    chosen = settings or Settings(countdown_s=1)
    race = await open_race(connect, GAME, ["Ann", "Bob"], chosen, watchers=0)
    if watcher is not None:
        joined = await watcher.call(JoinRoom, code=race.code, name="Watcher", role="spectator")
        assert joined.type == "joined", joined
        race.watchers.append(watcher)
    await start(race, SEED)
    ann, bob = race.racers
    for index, text in enumerate(LINE[:ann_moves]):
        race.advance_to(clock.now_ms() + STEP_MS)
        await ann.play(text)
        if index < 2:
            await bob.play(text)
    await bob.resign()
    if ann.playing:
        await ann.resign()
    return race, await race_over(race)


async def made_challenge(
    server: RaceServer, clock: ManualClock
) -> tuple[ChallengeCreated, RaceOver]:
    """`finished_race` on `server` (dealt `SEED`) made a challenge by Ann; its clients closed."""
    pin_secrets(server, SEED)
    async with opened_clients(Client.open, server) as open_:
        race, over = await finished_race(open_, clock)
        made = await race.racers[0].client.call(CreateChallenge)
    assert isinstance(made, ChallengeCreated), made
    return made, over


def replays_to_its_result(info: ChallengeInfo) -> None:
    """The revealed seed matches the commitment and every run's moves replay on it."""
    assert info.seed is not None
    seed = bytes.fromhex(info.seed)
    assert hashlib.sha256(seed).hexdigest() == info.seed_commit
    for run in info.runs:
        state = engine.new_game(info.variant, seed)
        for entry in run.log:
            state = engine.apply(state, engine.Move.parse(entry.move))
        assert (engine.progress(state), len(run.log)) == (run.progress, run.moves)
        assert (engine.outcome(state) is engine.Outcome.WON) == (run.outcome == "won")
