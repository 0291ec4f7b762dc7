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

__all__ = ["ghost_of", "ghosts_for", "ghosts_named"]


def ghosts_for(runs: Sequence[Run], count: int) -> tuple[Ghost, ...]:
    """The best `count` runs of the standings, best first, as ghosts."""
    return tuple(ghost_of(run) for run in ranked([r for r in runs if r.ranked])[:count])


def ghosts_named(runs: Sequence[Run], names: Sequence[str]) -> tuple[Ghost, ...] | str:
    """Each name's best run (a ranked one before practice), in the order named; or
    the first name that has no run."""
    chosen: list[Ghost] = []
    for name in names:
        own = [run for run in runs if run.name == name]
        if not own:
            return name
        best = sorted(ranked(own), key=lambda run: not run.ranked)[0]
        chosen.append(ghost_of(best))
    return tuple(chosen)


def ghost_of(run: Run) -> Ghost:
    steps: dict[int, tuple[int, int]] = {0: (0, 0)}
    for count, (at, made) in enumerate(zip(run.reached, run.reached_moves, strict=True), 1):
        steps[at] = (count, made)
    steps[run.elapsed_ms] = (run.progress, run.moves)
    ordered = tuple((at, home, moves) for at, (home, moves) in sorted(steps.items()))
    return Ghost(run.name, not run.account, ordered, run.outcome)
