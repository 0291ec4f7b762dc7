"""Loading and saving rooms: a pure transition applied under the room's version guard.

A change is read, computed and written as one optimistic step: if another
process saved the room in between, the store refuses the write and the step is
run again on the fresh room. The pure `server.lifecycle.room` functions make that safe.
Every save also writes the room's next deadline (`server.lifecycle.race.deadline`) in the
same step, so the store's deadline set never disagrees with the room.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import engine
from protocol import ErrorCode, LogEntry, encode
from server.lifecycle import race as races
from server.lifecycle import room as rooms
from server.lifecycle.ranking import PlayerStats
from server.lifecycle.room import Room, RoomError, Transition
from server.store import Store, VersionConflict

MAX_TRIES = 8


@dataclass(frozen=True, slots=True)
class Saved:
    """A transition that was stored, with the seqs its events were given."""

    room: Room
    version: int
    seqs: tuple[int, ...]
    seq: int
    """The room's seq right after the save."""


async def load(store: Store, code: str) -> tuple[Room, int, int]:
    """The room, its write version and its last event seq; `RoomError` if there is none."""
    record = await store.load_room(code)
    if record is None:
        raise RoomError(ErrorCode.ROOM_NOT_FOUND, f"no room {code}")
    return rooms.from_bytes(record.room), record.version, record.seq


async def update(store: Store, code: str, change: Callable[[Room], Transition]) -> Saved:
    """Apply `change` to the stored room and save the result with its events."""
    for _ in range(MAX_TRIES):
        room, version, seq = await load(store, code)
        result = change(room)
        if result.room == room and not result.events:
            return Saved(room, version, (), seq)
        bodies = [encode(event) for event in result.events]
        try:
            if room.phase == "countdown" and result.room.phase == "racing":
                seqs = await _start(store, code, version, result, bodies)
            else:
                seqs = await store.save_room(
                    code,
                    version,
                    rooms.to_bytes(result.room),
                    bodies,
                    deadline_ms=races.deadline(result.room),
                )
        except VersionConflict:
            continue
        return Saved(result.room, version + 1, tuple(seqs), seqs[-1] if seqs else seq)
    raise RoomError(ErrorCode.SERVER_BUSY, "the room is too busy right now; try again")


async def _start(
    store: Store, code: str, version: int, result: Transition, bodies: list[bytes]
) -> list[int]:
    """Racing begins: every seat gets a fresh game of the race's deal, atomically."""
    room = result.room
    deal = engine.new_game(room.variant, room.seed, room.settings.rule_option)
    state = engine.to_bytes(deal)
    players = {player.seat: state for player in room.players}
    return await store.start_race(
        code,
        version,
        rooms.to_bytes(room),
        players,
        bodies,
        start_at_ms=room.start_at_ms or 0,
        progress=engine.progress(deal),
        deadline_ms=races.deadline(room),
    )


async def load_stats(store: Store, code: str, room: Room, *, logs: bool) -> dict[int, PlayerStats]:
    """Each seat's game record as ranking and snapshots need it (empty in the lobby)."""
    if room.phase == "lobby":
        return {}
    stats: dict[int, PlayerStats] = {}
    for player in room.players:
        record = await store.load_player(code, player.seat)
        if record is None:
            continue
        log: tuple[LogEntry, ...] = ()
        if logs:
            moves = await store.move_log(code, player.seat)
            log = tuple(LogEntry(move=m.text, at_ms=m.ms, move_id=m.move_id) for m in moves)
        stats[player.seat] = PlayerStats(
            progress=record.progress,
            progress_at_ms=record.progress_at_ms,
            moves=record.moves,
            log=log,
        )
    return stats


async def standing_warnings(store: Store, code: str, room: Room) -> dict[int, int]:
    """Each racer's idle warning that still stands (no move since): seat to its timeout."""
    warned = [
        p.seat for p in room.players if p.outcome == "playing" and p.idle_timeout_ms is not None
    ]
    if room.phase != "racing" or not warned:
        return {}
    last_moves: dict[int, int] = {}
    for seat in warned:
        if (at_ms := await last_move_ms(store, code, seat)) is not None:
            last_moves[seat] = at_ms
    return races.standing_warnings(room, last_moves)


async def last_move_ms(store: Store, code: str, seat: int) -> int | None:
    """When the seat's last accepted move arrived; None before its first."""
    moves = await store.move_log(code, seat, -1, -1)
    return moves[-1].ms if moves else None


async def finish_if_over(store: Store, code: str, now_ms: int) -> Saved | None:
    """Rank and close the race once nobody is playing; None if it is not over (or done)."""
    room, _, _ = await load(store, code)
    if not races.is_over(room):
        return None
    stats = await load_stats(store, code, room, logs=True)

    def finish(current: Room) -> Transition:
        if not races.is_over(current):
            return Transition(current)
        return races.finish_race(current, stats, now_ms)

    saved = await update(store, code, finish)
    return saved if saved.seqs else None
