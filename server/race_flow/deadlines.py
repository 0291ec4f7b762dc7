"""A room's deadlines: the countdown's end, the time limit, idle warnings and timeouts,
and a finished race's records while they are due (`server.race_flow.records`).

`on_deadline` is what runs when a room's deadline comes due, whether a local
timer of the hub fired it (this process has sockets in the room) or the
`server.liveness.poller.DeadlinePoller` claimed it from the store's shared deadline set
(anyone's room, nobody connected). It looks at the room as it is now and does
whatever is due; every change is a guarded room update, so however many
processes act on one deadline, its effect happens once. Last it settles the
room's entry in the deadline set to the room's next deadline.

A ghost step (`server.lifecycle.ghosts`) is a room deadline too, several a second
in a challenge room, so a racing room whose only due work is ghost steps takes a
short path (`_ghost_step`): one guarded save of the ghosts shown, from the room
already read, which also writes the room's next deadline; the race's other checks
are skipped. They are the idle step and the time limit, which are other
deadlines and so take the full path when due; the close, which nothing on the
short path can make due; and `settle.reconcile`, which brings in a finish that a
process died before recording in the room. A room without ghosts reconciles
only at its other deadlines, at the latest at the time limit; a challenge room
does better while a ghost has steps left: a ghost step that begins a new
`FULL_CHECK_MS` of race time takes the full path, so such a finish is in the room
within that time (plus the gap to the next ghost step), and the short path stays
the common one. Once an idle warning can be due (someone finished, with an idle
limit), every ghost step takes the full path, which works out the exact times.
"""

from __future__ import annotations

from dataclasses import replace

from protocol import ErrorCode, encode
from server import room_store
from server.lifecycle import ghosts
from server.lifecycle import race as races
from server.lifecycle import room as rooms
from server.lifecycle.room import Room, RoomError, Transition
from server.race_flow import challenge_runs, records, settle
from server.services import Services
from server.store import VersionConflict

__all__ = ["EARLY_MS", "FULL_CHECK_MS", "is_ghost_step_only", "on_deadline"]

EARLY_MS = 100
"""A local timer may fire this much before its deadline by the wall clock; it waits
the rest. A deadline further off (the room moved on meanwhile) is left for later."""

FULL_CHECK_MS = 30_000
"""A ghost step that begins a new stretch of this much race time takes the full path:
the bound on bringing in a finish a dead process did not record (`is_ghost_step_only`)."""


async def on_deadline(services: Services, code: str) -> None:
    """Do what is due in the room now, then schedule its next deadline.

    Timers may fire a little early by the wall clock; then this waits the rest
    (at most `EARLY_MS`).
    """
    try:
        room, version, _ = await room_store.load(services.store, code)
    except RoomError as missing:
        if missing.code is not ErrorCode.ROOM_NOT_FOUND:
            raise
        await services.store.settle_deadline(code, -1, None)
        return
    due = races.deadline(room)
    early_ms = 0 if due is None else due - services.clock.now_ms()
    if 0 < early_ms <= EARLY_MS:
        await services.clock.sleep(early_ms / 1000 + 0.001)
    now = services.clock.now_ms()
    if is_ghost_step_only(room, now):
        await _ghost_step(services, code, room, version, now)
        return
    if room.phase == "countdown" and due is not None and now >= due:
        await settle.start(services, code, now)
    elif room.phase == "racing":
        await _racing(services, code, room, now)
    elif room.phase == "finished":
        if room.records_due:
            await records.record_race(services, code)
        if room.runs_due:
            await challenge_runs.add_runs(services, code)
    await _schedule_next(services, code)


def is_ghost_step_only(room: Room, now: int) -> bool:
    """True when all that may be due at `now` in a racing room with ghosts is ghost
    steps, none the first in a new `FULL_CHECK_MS` of race time; also when none is due
    (the room's timer and the poller both fired, and the other showed them)."""
    if not room.ghosts or room.phase != "racing" or room.start_at_ms is None:
        return False
    other = races.deadline(replace(room, ghosts=()))
    if other is not None and other <= now:
        return False
    step = ghosts.next_step_ms(room)
    if step is None or step > now:
        return True
    shown = [g.steps[g.shown - 1][0] for g in room.ghosts if g.shown > 0]
    last_ms = max(shown, default=-1)
    return (now - room.start_at_ms) // FULL_CHECK_MS <= last_ms // FULL_CHECK_MS


async def _ghost_step(services: Services, code: str, room: Room, version: int, now: int) -> None:
    """Show the ghost steps due, saved from the room as read (again from a fresh read
    if it changed meanwhile); the save sets the room's next deadline. When there is
    nothing to show, the room's deadline entry is settled instead."""
    shown = ghosts.play(room, now)
    if not shown.events:
        await services.store.settle_deadline(code, version, races.deadline(room))
        return
    try:
        await services.store.save_room(
            code,
            version,
            rooms.to_bytes(shown.room),
            [encode(event) for event in shown.events],
            deadline_ms=races.deadline(shown.room),
        )
    except VersionConflict:
        saved = await room_store.update(services.store, code, lambda r: ghosts.play(r, now))
        if not saved.seqs:
            await services.store.settle_deadline(code, saved.version, races.deadline(saved.room))


async def _racing(services: Services, code: str, room: Room, now: int) -> None:
    if room.ghosts:
        await room_store.update(services.store, code, lambda r: ghosts.play(r, now))
    await settle.reconcile(services, code, room)
    ends_at = races.time_limit(room)
    if now >= ends_at:
        for player in room.players:
            if player.outcome == "playing":
                await services.store.finish_player(code, player.seat, "timeout", ends_at)
        await room_store.update(services.store, code, lambda r: races.expire(r, now))
    else:
        await _idle(services, code, now)
    await settle.close_race(services, code, now)


async def _idle(services: Services, code: str, now: int) -> None:
    """Warn the players whose idle warning is due; time out those warned and still idle.

    A player's game is timed out only if it is still at the version read with
    their last move, so a move that lands meanwhile wins.
    """
    room, _, _ = await room_store.load(services.store, code)
    last, versions = await _last_moves(services, code, room)
    timed_out: list[int] = []
    for seat in races.idle_timeouts(room, last, now):
        at_ms, version = room.player(seat).idle_timeout_ms or now, versions.get(seat)
        if version is None:
            continue
        try:
            done = await services.store.finish_player(
                code, seat, "timeout", at_ms, expected_version=version
            )
        except VersionConflict:
            continue
        if done is not None:
            timed_out.append(seat)

    def change(current: Room) -> Transition:
        return races.idle_step(current, last, now, timed_out)

    await room_store.update(services.store, code, change)


async def _last_moves(
    services: Services, code: str, room: Room
) -> tuple[dict[int, int], dict[int, int]]:
    """Each racing seat's last move time (absent: none yet) and game version."""
    last: dict[int, int] = {}
    versions: dict[int, int] = {}
    if room.phase != "racing" or room.settings.idle_limit_s is None:
        return last, versions
    for player in room.players:
        if player.outcome != "playing":
            continue
        record = await services.store.load_player(code, player.seat)
        if record is None:
            continue
        versions[player.seat] = record.version
        if record.version > 0:
            at_ms = await room_store.last_move_ms(services.store, code, player.seat)
            if at_ms is not None:
                last[player.seat] = at_ms
    return last, versions


async def _schedule_next(services: Services, code: str) -> None:
    """Point the room's entry in the deadline set at its next deadline.

    Skipped when the room changed meanwhile: that save wrote the entry.
    """
    try:
        room, version, _ = await room_store.load(services.store, code)
    except RoomError:
        await services.store.settle_deadline(code, -1, None)
        return
    last, _ = await _last_moves(services, code, room)
    await services.store.settle_deadline(code, version, races.next_deadline(room, last))
