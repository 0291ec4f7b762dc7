"""A challenge room over real sockets, a real Valkey and a manual clock: its ghosts
go on from Redis after a server restart, it is never rated, its deal and settings
stay the challenge's, and a closed challenge replays every challenger's run too."""

from __future__ import annotations

from protocol import (
    CloseChallenge,
    CreateChallenge,
    ErrorCode,
    GetHistory,
    GetProfile,
    JoinChallenge,
    JoinRoom,
    RequestRematch,
    SetSettings,
    Settings,
)
from server.clock import ManualClock
from server.race_flow import challenge_runs, records
from tests.conftest import OpenStore
from tests.server._client import Client
from tests.server._players import pin_secrets, serve
from tests.server.conftest import opened_clients
from tests.server.race_flow._ghosts import (
    TICK_MS,
    Step,
    challenge_made,
    expected_steps,
    ghost_frames,
    race_challenge,
    run_once,
    standings,
    tick_through,
)
from tests.server.race_flow._records import signing_in
from tests.server.requests._challenges import GAME, LINE, SEED, finished_race, replays_to_its_result


async def test_ghosts_go_on_at_their_race_times_after_a_restart(
    open_store: OpenStore, clock: ManualClock
) -> None:
    async with challenge_made(await open_store(), clock) as (open_, _, over, code):
        cid = await open_()
        joined, started = await race_challenge(cid, code)
        steps = expected_steps(over)
        middle = steps[len(steps) // 2][0]
        half = len([step for step in steps if step[0] < middle])
        await tick_through(cid, started.start_at_ms, steps[:half])
        before = ghost_frames(cid)
    assert len(before) == half
    restarted = serve(await open_store(), clock)
    async with restarted as second, opened_clients(Client.open, second) as open_:
        watcher = await open_()
        watching = await watcher.call(JoinRoom, code=joined.code, name="W", role="spectator")
        assert watching.type == "joined", watching
        await tick_through(watcher, started.start_at_ms, steps[half:])
    start_ms = started.start_at_ms
    after = ghost_frames(watcher)
    shown = [(e.at_ms - start_ms, e.ghost, e.progress, e.moves, e.outcome) for _, e in after]
    assert shown == steps[half:]
    assert all(0 <= arrived - event.at_ms < TICK_MS for arrived, event in after)


async def test_a_rated_races_challenge_is_never_rated(
    open_store: OpenStore, clock: ManualClock
) -> None:
    rated = Settings(countdown_s=1, rated=True)
    async with serve(await open_store(), clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            signed_in = signing_in(open_, ["Annika", "Bobby", "Cidney"])
            race, _ = await finished_race(signed_in, clock, settings=rated)
            code = (await race.racers[0].client.call(CreateChallenge)).challenge.code
            cid = await signed_in()
            room = await run_once(cid, code, LINE[:3])
            await records.record_race(server.services, room)
            await challenge_runs.add_runs(server.services, room)
            history = await cid.call(GetHistory, name="Cidney")
            profile = await cid.call(GetProfile, name="Cidney")
            board = await standings(await open_(), code)
    (entry,) = history.races
    assert (entry.rated, entry.rating_before, entry.rating_after) == (False, None, None)
    assert profile.profile.ratings == ()
    assert [(run.name, run.original) for run in board.runs][1] == ("Cidney", False)


async def test_a_challenge_room_keeps_its_deal_and_settings(
    open_store: OpenStore, clock: ManualClock
) -> None:
    async with serve(await open_store(), clock) as server:
        pin_secrets(server, SEED)
        async with opened_clients(Client.open, server) as open_:
            race, _ = await finished_race(open_, clock)
            made = await race.racers[0].client.call(CreateChallenge)
            code = made.challenge.code
            cid = await open_()
            joined = await cid.call(JoinChallenge, code=code, name="Cid")
            assert (joined.room.variant, joined.room.settings.rated) == (GAME, False)
            changed = await cid.call(SetSettings, variant=GAME, settings=Settings(countdown_s=2))
            assert (changed.type, changed.code) == ("error", ErrorCode.CHALLENGE_FIXED_ROOM)
            friend = await open_()
            assert (await friend.call(JoinRoom, code=joined.code, name="Dot")).seat == 1
            eve = await signing_in(open_, ["Evelyn"])()
            room = await run_once(eve, code, LINE[:3])
            rematch = await eve.call(RequestRematch)
            assert (rematch.type, rematch.code) == ("error", ErrorCode.CHALLENGE_FIXED_ROOM)
            await challenge_runs.add_runs(server.services, room)
            closed = await race.racers[1].client.call(CloseChallenge, code=code, key=made.key)
            late = await open_()
            refused = await late.call(JoinChallenge, code=code, name="Late")
    assert (refused.type, refused.code) == ("error", ErrorCode.CHALLENGE_CLOSED)
    assert [run.name for run in closed.challenge.runs] == ["Ann", "Evelyn", "Bob"]
    replays_to_its_result(closed.challenge)


async def test_a_challenger_races_the_runs_it_names(
    open_store: OpenStore, clock: ManualClock
) -> None:
    async with challenge_made(await open_store(), clock) as (open_, _, over, code):
        nobody = await (await open_()).call(JoinChallenge, code=code, name="N", ghosts=("Zed",))
        cid = await open_()
        _, started = await race_challenge(cid, code, ghosts=("Bob",))
        bobs: list[Step] = [(a, 0, h, m, o) for a, g, h, m, o in expected_steps(over) if g == 1]
        await tick_through(cid, started.start_at_ms, bobs)
        frames = ghost_frames(cid)
    assert (nobody.type, nobody.code) == ("error", ErrorCode.CHALLENGE_NO_RUN)
    assert over.ranking[1].name == "Bob"
    start = started.start_at_ms
    shown = [(e.at_ms - start, e.ghost, e.progress, e.moves, e.outcome) for _, e in frames]
    assert (shown, {event.name for _, event in frames}) == (bobs, {"Bob"})
