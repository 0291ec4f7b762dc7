"""The job a solver worker runs for a dead-end check (`server.dead_end`).

Kept apart from the server's I/O modules so that a worker process imports
only the engine to run it.
"""

from __future__ import annotations

import time

import engine
from engine.solver import Budget
from engine.solver.dead_end import Answer, reach_home


def can_reach_home(state: bytes, budget_s: float) -> Answer:
    """Whether a card can still go home from ``state``, within ``budget_s`` of
    this process's CPU time (a busy machine does not cut the search short)."""
    start = time.process_time()

    def expired() -> bool:
        return time.process_time() - start >= budget_s

    return reach_home(engine.from_bytes(state), Budget(expired=expired)).answer
