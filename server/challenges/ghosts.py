"""A challenge's best runs as the ghosts of a room that races it (pure, no I/O).

A ghost steps at race time 0 (nothing home yet, so every client learns its ghosts
at the start), then each time its cards-home count changed, with the moves made
by then, and last at its finish. Steps of one instant are one step.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.challenges.records import Run
from server.challenges.standings import ranked
from server.lifecycle.state import Ghost

__all__ = ["ghost_of", "ghosts_for"]


def ghosts_for(runs: Sequence[Run], count: int) -> tuple[Ghost, ...]:
    """The best `count` runs of the standings, best first, as ghosts."""
    return tuple(ghost_of(run) for run in ranked([r for r in runs if r.ranked])[:count])


def ghost_of(run: Run) -> Ghost:
    steps: dict[int, tuple[int, int]] = {0: (0, 0)}
    for count, (at, made) in enumerate(zip(run.reached, run.reached_moves, strict=True), 1):
        steps[at] = (count, made)
    steps[run.elapsed_ms] = (run.progress, run.moves)
    ordered = tuple((at, home, moves) for at, (home, moves) in sorted(steps.items()))
    return Ghost(run.name, not run.account, ordered, run.outcome)
