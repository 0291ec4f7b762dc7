"""Adding a challenge room's finished race to its challenge, once, whoever runs it.

`server.lifecycle.race.finish_race` marks a challenge room's race as having runs due
(`Room.runs_due`), which keeps the room's deadline due until `add_runs` clears it,
so whichever process is alive does it (`server.race_flow.deadlines`), also after a
process died part way. Each step is safe to repeat: a run goes in under an id of
its race and seat (HSETNX), and an account's ranked attempt is claimed once.

A run is ranked (in the standings) when its racer is an account, not a bot, did
not race or watch the original room, has no ranked attempt at this challenge yet, and the
challenge was still open when the race ended; any other run is practice. A
ranked run of a day's deal counts towards its account's daily streak.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable

from protocol import RaceOver
from server import room_store
from server.challenges import daily
from server.challenges.records import Challenge, run_of, split, unpack_challenge
from server.challenges.standings import is_closed
from server.lifecycle import ghosts
from server.lifecycle import race as races
from server.lifecycle.room import Room, RoomError
from server.services import Services
from server.store import StoreError

__all__ = ["add_runs", "after_race"]

_log = logging.getLogger(__name__)


async def add_runs(services: Services, code: str) -> None:
    """Add the room's finished race to its challenge, if that is still due."""
    store = services.store
    room, _, _ = await room_store.load(store, code)
    if room.phase != "finished" or not room.runs_due:
        return
    stats = await room_store.load_stats(store, code, room, logs=True)
    over = races.results(room, stats)
    record = await store.load_challenge(room.challenge)
    if over is not None and record is not None:
        challenge = unpack_challenge(record.body)
        open_ = not is_closed(challenge, record.closed_ms, over.ended_at_ms)
        for line in over.ranking:
            await _add(services, room, challenge, over, line.seat, open_=open_)
    await room_store.update(store, code, lambda current: ghosts.runs_added(current, room.race_no))


async def _add(
    services: Services, room: Room, challenge: Challenge, over: RaceOver, seat: int, *, open_: bool
) -> None:
    line = next(line for line in over.ranking if line.seat == seat)
    player = room.player(seat)
    run_id = f"{over.start_at_ms:015d}-{room.code}-{room.race_no}-{seat}"
    may_rank = open_ and bool(player.account) and not player.bot
    may_rank = may_rank and player.account not in challenge.raced_by
    ranked = may_rank and await services.store.claim_ranked(challenge.code, player.account, run_id)
    run = run_of(
        line,
        player.account,
        over.start_at_ms,
        room.variant,
        room.seed,
        original=False,
        ranked=ranked,
    )
    await services.store.add_run(challenge.code, run_id, *split(run))
    day = daily.parse_code(challenge.code)
    if ranked and day is not None:
        await services.store.put_streak(player.account, _streak_step(day[1]))


def _streak_step(day: dt.date) -> Callable[[str | None, int], tuple[str, int]]:
    """The streak's change for a ranked daily run on `day` (the same on a retry)."""

    def step(last: str | None, streak: int) -> tuple[str, int]:
        before = None if last is None else dt.date.fromisoformat(last)
        if before is not None and before > day:
            return last or "", streak
        return day.isoformat(), daily.next_streak(before, streak, day)

    return step


def after_race(services: Services, code: str, room: Room) -> None:
    """Add the race ``room`` has just closed to its challenge, in the background."""
    if not room.runs_due:
        return
    task = asyncio.create_task(_logged(services, code))
    services.background.add(task)
    task.add_done_callback(services.background.discard)


async def _logged(services: Services, code: str) -> None:
    """Run the step; a failure is logged, never raised: the room's deadline retries it."""
    try:
        await add_runs(services, code)
    except (RoomError, StoreError) as error:
        _log.info("runs of room %s not added yet: %s", code, error)
    except Exception:
        _log.exception("adding the runs of room %s failed", code)
