"""Solver jobs run in worker processes; the event loop keeps turning meanwhile."""

from __future__ import annotations

import asyncio
import os
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from server.solver.pool import AnalysisBusy, Analyst


def _spin(seconds: float) -> int:
    """Busy CPU work for ``seconds``, in whatever process runs it; returns its pid."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass
    return os.getpid()


async def test_a_job_runs_in_another_process_while_the_loop_turns() -> None:
    analyst = Analyst(workers=1, queue=1)
    try:
        job = asyncio.ensure_future(analyst.run(_spin, 0.3))
        turns = 0
        while not job.done():
            await asyncio.sleep(0)
            turns += 1
        assert await job != os.getpid()
        assert turns > 100
    finally:
        analyst.close()


async def test_no_workers_refuses_every_job() -> None:
    analyst = Analyst(workers=0, queue=5)
    with pytest.raises(AnalysisBusy):
        await analyst.run(_spin, 0.0)


async def test_jobs_beyond_the_queue_are_refused_not_queued() -> None:
    analyst = Analyst(workers=1, queue=1)
    try:
        first = asyncio.ensure_future(analyst.run(_spin, 0.2))
        second = asyncio.ensure_future(analyst.run(_spin, 0.0))
        await asyncio.sleep(0)
        assert analyst.pending == 2
        with pytest.raises(AnalysisBusy):
            await analyst.run(_spin, 0.0)
        await asyncio.gather(first, second)
        assert analyst.pending == 0
        assert isinstance(await analyst.run(_spin, 0.0), int)
    finally:
        analyst.close()


async def test_a_closed_analyst_refuses_jobs() -> None:
    analyst = Analyst(workers=1, queue=1)
    assert isinstance(await analyst.run(_spin, 0.0), int)
    analyst.close()
    analyst.close()
    with pytest.raises(AnalysisBusy):
        await analyst.run(_spin, 0.0)


async def test_closing_ends_a_job_still_running() -> None:
    analyst = Analyst(workers=1, queue=0)
    assert isinstance(await analyst.run(_spin, 0.0), int)
    job = asyncio.ensure_future(analyst.run(_spin, 30.0))
    await asyncio.sleep(0.1)
    analyst.close()
    with pytest.raises(BrokenProcessPool):
        await job
