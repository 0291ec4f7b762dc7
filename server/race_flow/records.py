"""Recording a finished race in its accounts, exactly once, whoever runs it.

Theory of operation. `record_race` may run in any number of processes at once and
again after any of them died part way; each step is safe to repeat:

1. plan: the first run computes the race's plan from its results and the
   accounts' ratings (`server.lifecycle.rating`) and saves it into the room under
   the room's version guard; the first plan saved wins, every run records that one;
2. apply: per account, one script on the account's slot writes its history entry,
   rating and best time unless the race's done marker is there already
   (`Store.apply_record`), then the leaderboards; the accounts' scripts are sent
   at once, so the store's group commit takes them in one round trip;
3. close: the room forgets that records are due, takes the new ratings and tells
   everyone (``race_rated``) in one guarded save.

It runs right after the race closes (`server.race_flow.settle.close_race`, in the
background, like the verdict), from the room's deadline while records are due
(`server.race_flow.deadlines`: a process that died mid-way is finished for by any
other), and before a rematch (`server.requests.lobby`), so no race is lost.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from server import room_store
from server.accounts.codec import pack_history
from server.config import Config
from server.lifecycle import recording
from server.lifecycle.rating import RacePlan, SeatPlan, Skill
from server.lifecycle.room import Room, RoomError
from server.services import Services
from server.store import DealWin, RatingMove, Store, StoredRating, StoreError

__all__ = ["after_race", "record", "record_race"]

_log = logging.getLogger(__name__)

_RUNNING: weakref.WeakValueDictionary[tuple[int, str], asyncio.Task[None]] = (
    weakref.WeakValueDictionary()
)
"""The run under way in this process for each (services, room): a second caller
(the room's local deadline timer fires as the race closes) waits for it instead of
doing the same work again."""


async def record_race(services: Services, code: str) -> None:
    """Write the room's finished race into its accounts, if that is still due.

    Within one process, a call while another runs for the same room waits for it.
    """
    key = (id(services), code)
    task = _RUNNING.get(key)
    if task is None or task.done():
        task = asyncio.create_task(record(services.store, services.config, code))
        _RUNNING[key] = task
    await asyncio.shield(task)


async def record(store: Store, config: Config, code: str) -> None:
    """The step itself, with no sharing between callers (`record_race` shares it)."""
    room, _, _ = await room_store.load(store, code)
    plan = recording.current_plan(room) or await _planned(store, config, code, room)
    if plan is None:
        return
    await asyncio.gather(*(_apply(store, config, room, plan, seat) for seat in plan.seats))
    await room_store.update(
        store, code, lambda current: recording.close_records(current, plan.race_no)
    )


def after_race(services: Services, code: str, room: Room) -> None:
    """Record the race ``room`` has just closed, in the background (no reply waits for it)."""
    if not room.records_due:
        return
    task = asyncio.create_task(_logged(services, code))
    services.background.add(task)
    task.add_done_callback(services.background.discard)


async def _planned(store: Store, config: Config, code: str, room: Room) -> RacePlan | None:
    """The plan kept in the room: this run's, or an earlier one's that was saved first."""
    if room.phase != "finished" or not room.records_due:
        return None
    stats = await room_store.load_stats(store, code, room, logs=False)
    stored = await store.rating_priors(recording.accounts(room), room.variant)
    priors = {account: Skill(r.mu, r.sigma, r.races) for account, r in stored.items()}
    plan = recording.plan_for(room, stats, priors, config.provisional_races)
    if plan is None:
        return None
    saved = await room_store.update(store, code, lambda current: recording.save_plan(current, plan))
    return recording.current_plan(saved.room)


async def _apply(store: Store, config: Config, room: Room, plan: RacePlan, seat: SeatPlan) -> None:
    entry = seat.entry
    move = None
    if seat.before is not None and seat.after is not None:
        before = StoredRating(seat.before.mu, seat.before.sigma, seat.before.races)
        move = RatingMove(before, seat.after.mu, seat.after.sigma)
    win = None
    if entry.outcome == "won" and entry.deal_number is not None and not entry.practice:
        win = DealWin(entry.deal_number, entry.elapsed_ms, entry.at_ms)
    recorded = await store.apply_record(
        seat.account,
        plan.race_key,
        room.variant,
        history=pack_history(entry),
        rating=move,
        best=win,
        board_min_races=config.leaderboard_min_races,
    )
    if recorded is None:
        _log.info("account %s is gone; race %s not recorded in it", seat.account, plan.race_key)


async def _logged(services: Services, code: str) -> None:
    """Run the step; a failure is logged, never raised: the room's deadline retries it."""
    try:
        await record_race(services, code)
    except (RoomError, StoreError) as error:
        _log.info("records of room %s not written yet: %s", code, error)
    except Exception:
        _log.exception("recording room %s failed", code)
