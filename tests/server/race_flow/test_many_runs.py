"""A challenge with 1,000 recorded runs, over real sockets, a real Valkey and a
manual clock: a challenger races the best few as ghosts, and the standings list
the best `MAX_CHALLENGE_RUNS` in their ranked order."""

from __future__ import annotations

from protocol import GetChallenge, limits
from server.challenges.records import Run, split
from server.clock import ManualClock
from tests.conftest import OpenStore
from tests.server.race_flow._ghosts import (
    challenge_made,
    ghost_frames,
    race_challenge,
    tick_through,
)

RUNS = 1_000


def recorded(index: int) -> Run:
    """Run `index` of the many: a win, each one a millisecond slower than the last."""
    start = 10_000_000 + index * 100_000
    return Run(
        name=f"R{index:04d}",
        account=f"a-{index}",
        original=False,
        start_at_ms=start,
        outcome="won",
        progress=1,
        progress_at_ms=start + 500,
        moves=1,
        finished_at_ms=start + 1_000 + index,
        reached=(500,),
        reached_moves=(1,),
        log=(("m", start + 500, "id"),),
    )


async def test_a_thousand_runs_give_the_best_as_ghosts_and_standings(
    open_store: OpenStore, clock: ManualClock
) -> None:
    store = await open_store()
    async with challenge_made(store, clock) as (open_, _, _, code):
        for index in reversed(range(RUNS)):
            assert await store.add_run(code, f"r-{index:04d}", *split(recorded(index)))
        cid = await open_()
        _, started = await race_challenge(cid, code)
        await tick_through(cid, started.start_at_ms, [(0, g, 0, 0, "playing") for g in range(3)])
        board = await (await open_()).call(GetChallenge, code=code)
    names = [f"R{index:04d}" for index in range(limits.MAX_CHALLENGE_RUNS)]
    assert [event.name for _, event in ghost_frames(cid)[:3]] == names[:3]
    assert [run.name for run in board.challenge.runs] == names
