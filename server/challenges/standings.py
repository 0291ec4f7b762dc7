"""A challenge's standings and what anyone may see of it (pure, no I/O).

Runs are ranked by the race ranking of docs/protocol.md on race-clock times
(time since each run's own start) instead of server stamps: winners by the time
they finished, the others by cards home, then by when they first had that many;
a tie left after that goes to the run recorded first. "Behind by" compares a run
with the first one at the highest count of cards home both reached.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from protocol import ChallengeInfo, ChallengeRun, LogEntry, limits
from server.challenges.records import Challenge, Run

__all__ = ["behind_ms", "best", "info", "is_closed", "ranked"]


def is_closed(challenge: Challenge, closed_ms: int | None, now_ms: int) -> bool:
    """Closed by its creator, or its time is up."""
    return closed_ms is not None or now_ms >= challenge.closes_at_ms


def ranked(runs: Sequence[Run]) -> list[Run]:
    """Best first; equal runs keep the order they were recorded in."""
    return sorted(runs, key=_order)


def best(runs: Iterable[Run]) -> list[Run]:
    """The runs the standings list: the best `MAX_CHALLENGE_RUNS` ranked ones."""
    return ranked([run for run in runs if run.ranked])[: limits.MAX_CHALLENGE_RUNS]


def _order(run: Run) -> tuple[int, int, int]:
    if run.outcome == "won":
        return (0, run.elapsed_ms, 0)
    return (1, -run.progress, run.progress_ms)


def behind_ms(run: Run, first: Run) -> int | None:
    """This run's race time minus the first's at the highest count of cards home both
    reached (negative: ahead); None when either has no card home."""
    both = min(len(run.reached), len(first.reached))
    if both == 0:
        return None
    return run.reached[both - 1] - first.reached[both - 1]


def info(
    challenge: Challenge,
    runs: Sequence[Run],
    closed_ms: int | None,
    now_ms: int,
    *,
    show_moves: bool = False,
) -> ChallengeInfo:
    """The challenge as anyone sees it: while open no seed and no move of any run
    (`show_moves` shows them to a challenger who has finished)."""
    closed = is_closed(challenge, closed_ms, now_ms)
    standing = [run for run in runs if run.ranked]
    listed = best(standing)
    moves = closed or show_moves
    lines = tuple(_line(place, run, listed[0], moves) for place, run in enumerate(listed, 1))
    closes_at = (
        challenge.closes_at_ms if closed_ms is None else min(closed_ms, challenge.closes_at_ms)
    )
    return ChallengeInfo(
        code=challenge.code,
        variant=challenge.variant,
        deal_number=challenge.settings.deal_number,
        seed_commit=_commit(challenge.seed),
        created_ms=challenge.created_ms,
        closes_at_ms=closes_at,
        closed=closed,
        seed=challenge.seed.hex() if closed else None,
        runs=lines,
        total_runs=len(standing),
        practice_runs=len(runs) - len(standing),
    )


def _line(place: int, run: Run, first: Run, closed: bool) -> ChallengeRun:
    log = tuple(LogEntry(move=text, at_ms=at, move_id=move_id) for text, at, move_id in run.log)
    return ChallengeRun(
        place=place,
        name=run.name,
        guest=not run.account,
        original=run.original,
        outcome=run.outcome,  # type: ignore[arg-type]
        progress=run.progress,
        progress_ms=run.progress_ms,
        moves=run.moves,
        elapsed_ms=run.elapsed_ms,
        behind_ms=None if place == 1 else behind_ms(run, first),
        log=log if closed else (),
    )


def _commit(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()
