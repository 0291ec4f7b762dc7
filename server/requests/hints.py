"""Hints: the next move of a winning line from a racer's position, in practice rooms.

A hint is asked for with ``hint`` and answered with ``Hint``. It is given only in
a room whose settings say ``practice`` (never in a ranked race), only to a player
still racing, and from the position of their game in the store: the moves they
made so far are replayed in a worker process (`server.solver.pool`) and searched
for ``hint_budget_s`` CPU seconds. The reply names the version (moves made) the
hint is for, so a client that moved meanwhile can tell it is stale. The line
found is kept per seat (`server.solver.hint_lines`): while the player follows it, the
next hint is its next move, with no search. No free worker: ``server/busy``.
"""

from __future__ import annotations

from protocol import AskHint, ErrorCode, Hint
from server.conn.session import Session
from server.lifecycle import race as races
from server.lifecycle.room import Room, RoomError
from server.solver import jobs
from server.solver.hint_lines import Line
from server.solver.pool import AnalysisBusy

__all__ = ["hint"]


async def hint(session: Session, message: AskHint) -> Hint:
    services = session.services
    code, seat, room = await _practice_racer(session)
    played = [entry.text for entry in await services.store.move_log(code, seat)]
    version = len(played)
    kept = services.hint_lines.next_move(code, seat, room.race_no, played)
    if kept is not None:
        return Hint(id=message.id, version=version, verdict="won", move=kept)
    budget_s = services.config.hint_budget_s
    job = jobs.winning_line
    try:
        result, line = await services.analyst.run(
            job, room.variant, room.seed, tuple(played), budget_s, room.settings.rule_option
        )
    except AnalysisBusy as busy:
        services.metrics.solver_jobs.labels("hint", "busy").inc()
        raise RoomError(ErrorCode.SERVER_BUSY, str(busy)) from None
    services.metrics.solver_jobs.labels("hint", result).inc()
    if result != "won" or not line:
        return Hint.model_validate({"id": message.id, "version": version, "verdict": result})
    services.hint_lines.keep(code, seat, Line(room.race_no, version, line))
    return Hint(id=message.id, version=version, verdict="won", move=line[0])


async def _practice_racer(session: Session) -> tuple[str, int, Room]:
    """The room and seat of a player racing in a practice room; else the error to send."""
    if session.place.code is None:
        raise RoomError(ErrorCode.ROOM_NOT_MEMBER, "join a room first")
    room = await session.services.hub.room(session.place.code)
    if not room.settings.practice:
        raise RoomError(ErrorCode.ROOM_NOT_PRACTICE, "hints are given in practice rooms only")
    if session.place.seat is None:
        raise RoomError(ErrorCode.MOVE_SPECTATOR, "spectators get no hints")
    if room.phase != "racing":
        raise RoomError(ErrorCode.MOVE_NOT_RACING, f"no race is running ({room.phase})")
    races.check_move(room, session.place.seat, session.services.clock.now_ms())
    return session.place.code, session.place.seat, room
