"""Ghosts in a challenge room: recorded runs shown at their recorded race times (pure).

A ghost's steps are the instants its run's cards-home count changed, with its move
count then, and its finish. `next_step_ms` is the room's next ghost deadline, which
`server.lifecycle.race.deadline` folds into the room's deadline, so whichever
process is alive shows each step once (`play` under the room's version guard), at
the race's start plus the recorded race time. A ghost shows progress only: its
moves and boards are never in a room event.
"""

from __future__ import annotations

from dataclasses import replace

from protocol import ErrorCode, GhostInfo, events
from server.lifecycle.state import Ghost, Room, RoomError, Transition

__all__ = ["next_step_ms", "play", "require_ordinary", "runs_added", "shown", "with_shown"]


def next_step_ms(room: Room) -> int | None:
    """When the next ghost step is due (None: no ghost has a step left, or no race)."""
    if room.phase != "racing" or room.start_at_ms is None:
        return None
    start = room.start_at_ms
    due = [start + ghost.steps[ghost.shown][0] for ghost in room.ghosts if _left(ghost)]
    return min(due, default=None)


def play(room: Room, now_ms: int) -> Transition:
    """Show every ghost step due by `now_ms`, in race-time order (ties by ghost)."""
    if room.phase != "racing" or room.start_at_ms is None:
        return Transition(room)
    start = room.start_at_ms
    due = sorted(
        (start + ghost.steps[step][0], index, step)
        for index, ghost in enumerate(room.ghosts)
        for step in range(ghost.shown, len(ghost.steps))
        if start + ghost.steps[step][0] <= now_ms
    )
    if not due:
        return Transition(room)
    ghosts = list(room.ghosts)
    shown: list[events.GhostProgress] = []
    for at_ms, index, step in due:
        ghost = ghosts[index]
        ghosts[index] = replace(ghost, shown=step + 1)
        shown.append(_event(room.race_no, index, ghost, step, at_ms))
    return Transition(replace(room, ghosts=tuple(ghosts)), tuple(shown))


def shown(room: Room) -> tuple[GhostInfo, ...]:
    """Each ghost shown in the room's race so far, as its last step showed it (for the
    room's snapshot: a client joining mid-race sees them before their next step)."""
    if room.phase not in ("racing", "finished") or room.start_at_ms is None:
        return ()
    infos = []
    for index, ghost in enumerate(room.ghosts):
        if ghost.shown > 0:
            step = ghost.shown - 1
            event = _event(
                room.race_no, index, ghost, step, room.start_at_ms + ghost.steps[step][0]
            )
            infos.append(GhostInfo(**event.model_dump(exclude={"type", "race_no"})))
    return tuple(infos)


def with_shown(room: Room, race_no: int, index: int, at_ms: int) -> Room | None:
    """The room once it has shown ghost `index`'s step at `at_ms` of race `race_no`, as a
    ``ghost_progress`` event told (unchanged if it had); None if no such step is due."""
    if room.phase != "racing" or room.start_at_ms is None or room.race_no != race_no:
        return None
    if not 0 <= index < len(room.ghosts):
        return None
    ghost = room.ghosts[index]
    step = next(
        (
            at
            for at, (race_ms, _, _) in enumerate(ghost.steps)
            if room.start_at_ms + race_ms == at_ms
        ),
        None,
    )
    if step is None:
        return None
    if ghost.shown > step:
        return room
    ghosts = list(room.ghosts)
    ghosts[index] = replace(ghost, shown=step + 1)
    return replace(room, ghosts=tuple(ghosts))


def require_ordinary(room: Room) -> None:
    """`RoomError` for a challenge room: its game, deal and settings are fixed."""
    if room.challenge:
        raise RoomError(
            ErrorCode.CHALLENGE_FIXED_ROOM,
            f"this room races challenge {room.challenge}: its deal and settings stay",
        )


def _left(ghost: Ghost) -> bool:
    return ghost.shown < len(ghost.steps)


def _event(race_no: int, index: int, ghost: Ghost, step: int, at_ms: int) -> events.GhostProgress:
    _, progress, moves = ghost.steps[step]
    last = step == len(ghost.steps) - 1
    return events.GhostProgress(
        race_no=race_no,
        ghost=index,
        name=ghost.name,
        guest=ghost.guest,
        progress=progress,
        moves=moves,
        outcome=ghost.outcome if last else "playing",  # type: ignore[arg-type]
        at_ms=at_ms,
    )


def runs_added(room: Room, race_no: int) -> Transition:
    """The finished race's runs are in its challenge: nothing is due any more."""
    if room.phase != "finished" or not room.runs_due or room.race_no != race_no:
        return Transition(room)
    return Transition(replace(room, runs_due=False))
