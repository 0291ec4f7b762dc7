"""The solver's verdict on a deal after its race: won (with the line's length),
unwinnable, or undecided within ``verdict_budget_s``.

The process whose save closed the race (`server.race_flow.settle.close_race`) starts the
job in the background once ``race_over`` is stored, so the results never wait
for the solver, and the search runs in a worker process (`server.solver.pool`), so
the event loop never waits for it either. The verdict is then saved into the
room with a ``deal_analysed`` event under the room's version guard: `analysed`
changes nothing when the room already holds a verdict for that race or has
moved on to a rematch, so a second process or a retry cannot append it twice.

No verdict is given when no solver worker is free (``analysis_workers`` 0, or
``analysis_queue`` jobs already waiting), when the room has expired meanwhile,
or when the server shuts down before the job ends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import replace

from protocol import DealVerdict, events
from server import room_store
from server.lifecycle.room import Room, RoomError, Transition
from server.services import Services
from server.solver import jobs
from server.solver.pool import AnalysisBusy
from server.store import StoreError

__all__ = ["after_race", "analyse", "analysed"]

_log = logging.getLogger(__name__)


def analysed(room: Room, verdict: DealVerdict) -> Transition:
    """Record the verdict on race ``verdict.race_no`` if that race is the room's last,
    over, and has none yet; otherwise change nothing."""
    current = room.verdict
    if room.phase != "finished" or room.race_no != verdict.race_no:
        return Transition(room)
    if current is not None and current.race_no == verdict.race_no:
        return Transition(room)
    return Transition(replace(room, verdict=verdict), (events.DealAnalysed(verdict=verdict),))


def after_race(services: Services, code: str, room: Room) -> None:
    """Analyse the deal of the race ``room`` has just closed, in the background."""
    task = asyncio.create_task(_logged(analyse(services, code, room)))
    services.background.add(task)
    task.add_done_callback(services.background.discard)


async def analyse(services: Services, code: str, room: Room) -> DealVerdict | None:
    """Solve the race's deal in a worker and save the verdict; ``None`` if no worker was free."""
    budget_s = services.config.verdict_budget_s
    job = jobs.deal_verdict
    try:
        result, length = await services.analyst.run(
            job, room.variant, room.seed, budget_s, room.settings.rule_option
        )
    except AnalysisBusy:
        services.metrics.solver_jobs.labels("verdict", "busy").inc()
        _log.info("no solver worker free; room %s race %d gets no verdict", code, room.race_no)
        return None
    services.metrics.solver_jobs.labels("verdict", result).inc()
    verdict = DealVerdict.model_validate(
        {"race_no": room.race_no, "verdict": result, "line_moves": length, "budget_s": budget_s}
    )
    await room_store.update(services.store, code, lambda current: analysed(current, verdict))
    return verdict


async def _logged(work: Awaitable[object]) -> None:
    """Run a verdict; a room gone meanwhile or a failure is logged, never raised."""
    try:
        await work
    except (RoomError, StoreError) as error:
        _log.info("verdict not saved: %s", error)
    except Exception:
        _log.exception("verdict failed")
