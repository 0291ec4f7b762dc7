"""Solver jobs that `server.solver.pool.Analyst` runs in its worker processes.

A job crosses a process boundary both ways, so it is a module-level function
taking only plain values (a variant key, the seed's bytes, move texts, a budget
in seconds) and returning a plain tuple. The budget is CPU time of the worker
(`time.process_time`): a worker that waits for a core does not lose its budget
to the wait, and a busy machine cannot turn a verdict into "undecided".
The module imports only the engine, so a worker process runs a job without
importing the server's I/O modules.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import engine
from engine.solver import Budget, solve
from engine.solver.dead_end import Answer, reach_home

__all__ = ["can_reach_home", "deal_verdict", "winning_line"]


def deal_verdict(
    variant: str, seed: bytes, budget_s: float, option: str = ""
) -> tuple[str, int | None]:
    """The solver's result on the deal from its first position, under the room's
    rule ``option``, and the length of the winning line it found (``None``
    unless the result is ``"won"``)."""
    result, line = winning_line(variant, seed, (), budget_s, option)
    return result, len(line) if result == "won" else None


def winning_line(
    variant: str, seed: bytes, moves: tuple[str, ...], budget_s: float, option: str = ""
) -> tuple[str, tuple[str, ...]]:
    """The solver's result from the position after ``moves`` on the deal, with the
    winning line from there (empty unless the result is ``"won"``)."""
    state = engine.replay(variant, seed, moves, option)
    verdict = solve(state, Budget(expired=_cpu_deadline(budget_s)))
    return verdict.result, verdict.moves


def can_reach_home(state: bytes, budget_s: float) -> Answer:
    """Whether a card can still go home from ``state`` (the dead-end check of
    `server.conn.dead_end_watch`), within ``budget_s`` of CPU time."""
    return reach_home(engine.from_bytes(state), Budget(expired=_cpu_deadline(budget_s))).answer


def _cpu_deadline(budget_s: float) -> Callable[[], bool]:
    """A check that says when this process has spent ``budget_s`` more CPU seconds."""
    end = time.process_time() + budget_s
    return lambda: time.process_time() > end
