"""Solver work off the event loop: a small pool of worker processes.

The solver is pure CPU work in `engine.solver`; a search of several seconds on
the event loop would stall every race the process serves. `Analyst.run` sends a
job to a worker process and awaits it, and refuses (`AnalysisBusy`) when more
jobs than ``analysis_queue`` are already waiting, so a burst of requests cannot
queue unbounded work. Workers start on first use from a fork server that has
already imported the engine.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class AnalysisBusy(Exception):
    """No worker can take the job now (none configured, closed, or too many waiting)."""


class Analyst:
    def __init__(self, workers: int, queue: int) -> None:
        self.workers, self.queue = workers, queue
        self.pending = 0
        """Jobs sent and not yet answered."""
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    async def run(self, job: Callable[..., T], *args: object) -> T:
        """``job(*args)`` in a worker process. ``job`` and its arguments must pickle."""
        if self._closed or self.workers < 1 or self.pending >= self.workers + self.queue:
            raise AnalysisBusy("no solver worker is free; try again later")
        self.pending += 1
        try:
            answer = asyncio.wrap_future(self._executor().submit(job, *args))
            answer.add_done_callback(_consumed)
            return await asyncio.shield(answer)
        finally:
            self.pending -= 1

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["engine", "engine.solver"])
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._pool

    def close(self) -> None:
        """Stop the workers; every job not answered yet fails with `BrokenProcessPool`.

        A worker in the middle of a search is terminated rather than left to spend
        the rest of its budget on an answer nobody will read.
        """
        self._closed = True
        if self._pool is not None:
            busy = list(self._pool._processes.values())
            self._pool.shutdown(wait=False)
            for worker in busy:
                worker.terminate()
            self._pool = None


def _consumed(answer: asyncio.Future[Any]) -> None:
    """Read the outcome of a job whose caller may have stopped waiting.

    A job is never cancelled in the pool: the caller waits through a shield.
    Python 3.11's pool fails in its own thread when it finds a cancelled job
    while its workers are being stopped, and a job's answer that nobody reads
    is simply dropped here.
    """
    if not answer.cancelled():
        answer.exception()
