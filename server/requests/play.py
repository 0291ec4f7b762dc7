"""Moves, resignations and the host ending a race: the hot path of the server.

A move is checked against the room (racing, the player still playing, in
time), parsed and played by the engine on the player's game (a move that
changes nothing is refused, never stored or counted), then committed
with the player's expected version and its ``progress`` event in one guarded
step. The session keeps the player's game between moves, so the common move
costs one store round trip. A move that ends the player's race (won, stuck)
updates the room, and the last player to finish closes the race. The race's
deadlines (start, time limit, idle limit) are in `server.race_flow.deadlines`.
"""

from __future__ import annotations

import logging
import time

import engine
from protocol import (
    BoardView,
    EndRace,
    ErrorCode,
    MakeMove,
    MoveOk,
    Ok,
    Resign,
    encode_move_ok,
    encode_progress,
)
from protocol.limits import MAX_MOVES
from server import room_store
from server.conn.session import Session
from server.lifecycle import race as races
from server.lifecycle.room import Room, RoomError, Transition
from server.race_flow import settle
from server.services import Services
from server.store import AlreadyFinished, Duplicate, VersionConflict

_log = logging.getLogger(__name__)

_OVER = (ErrorCode.MOVE_NOT_RACING, ErrorCode.MOVE_FINISHED)
"""Refusals a resend of a move that ended the player's race (or the race) would get."""

__all__ = [
    "EndRace",
    "MakeMove",
    "MoveRefused",
    "Resign",
    "end_race",
    "move",
    "own_board",
    "resign",
]


class MoveRefused(RoomError):
    """A refused move; the reply tells the player's current game version."""

    def __init__(self, code: ErrorCode, message: str, version: int) -> None:
        super().__init__(code, message)
        self.version = version


async def move(session: Session, message: MakeMove) -> MoveOk | bytes:
    """The ack, packed straight to bytes on the common path (`encode_move_ok`).

    A move that ends the player's race records the finish before the ack goes
    out; the events it causes are held and follow the ack.
    """
    received = time.perf_counter()  # latency of real work, so real time, not the race clock
    services = session.services
    code, seat = _racer(session, "play")
    now = services.clock.now_ms()
    try:
        room = services.hub.rooms.get(code)  # the common case, without a coroutine
        if room is None or room.phase != "racing":
            room = await _racing_room(services, code, now)
        races.check_move(room, seat, now)
    except RoomError as refused:
        if refused.code not in _OVER:
            raise
        return await _resent_or(refused, session, message)
    kept = session.game_for(room.race_no)
    state, version = kept if kept is not None else await _game(session, code, seat, room.race_no)
    if message.expected_version != version:
        return await _resent_or_stale(session, message, version)
    if version >= MAX_MOVES:
        raise MoveRefused(ErrorCode.MOVE_LIMIT, f"at most {MAX_MOVES} moves in one race", version)
    new_state = _apply(services, state, message.move, version)
    seen = engine.view(new_state)
    outcome, progress = seen.outcome, seen.progress
    try:
        result = await services.store.commit_move(
            code,
            seat,
            version,
            engine.to_bytes(new_state),
            move_text=message.move,
            move_id=message.move_id,
            now_ms=now,
            progress=progress,
            outcome=outcome,
            event=encode_progress(seat, progress, version + 1, outcome),
        )
    except VersionConflict as conflict:
        session.forget_game()
        raise _stale(conflict.current) from None
    except AlreadyFinished:
        session.forget_game()
        raise RoomError(ErrorCode.MOVE_FINISHED, "your race is over") from None
    if isinstance(result, Duplicate):
        session.forget_game()
        return await _resent_or_stale(session, message, result.version)
    session.keep_game(room.race_no, new_state, result.version)
    ack = encode_move_ok(message.id, message.move_id, result.version, seen, now)
    services.metrics.moves.inc()
    services.metrics.move_latency.observe(time.perf_counter() - received)
    session.dead_end.moved(progress, now)
    if outcome != engine.Outcome.PLAYING:
        session.dead_end.stop()
        session.pause()
        await _finish_after_move(services, code, seat, outcome, now)
    return ack


async def resign(session: Session, message: Resign) -> Ok:
    services = session.services
    code, seat = _racer(session, "resign")
    now = services.clock.now_ms()
    room = await _racing_room(services, code, now)
    races.check_move(room, seat, now)
    if await services.store.finish_player(code, seat, "resigned", now) is None:
        raise RoomError(ErrorCode.MOVE_FINISHED, "your race is over")
    session.forget_game()
    await _finish(services, code, seat, "resigned", now)
    return Ok(id=message.id)


async def end_race(session: Session, message: EndRace) -> Ok:
    """Host only: everyone still racing finishes with ``timeout`` now."""
    services = session.services
    code, seat = _racer(session, "end the race")
    now = services.clock.now_ms()
    room, _, _ = await room_store.load(services.store, code)
    races.end_race(room, seat, now)
    now = min(now, races.time_limit(room))
    timed_out: list[int] = []
    for player in room.players:
        if player.outcome != "playing":
            continue
        if await services.store.finish_player(code, player.seat, "timeout", now) is not None:
            timed_out.append(player.seat)

    def change(current: Room) -> Transition:
        return races.end_race(current, seat, now, timed_out)

    saved = await room_store.update(services.store, code, change)
    await settle.reconcile(services, code, saved.room)
    await settle.close_race(services, code, now)
    return Ok(id=message.id)


def _racer(session: Session, verb: str) -> tuple[str, int]:
    """The room and seat of a player; spectators and outsiders are refused."""
    if session.code is None:
        raise RoomError(ErrorCode.ROOM_NOT_MEMBER, "join a room first")
    if session.seat is None:
        raise RoomError(ErrorCode.MOVE_SPECTATOR, f"spectators cannot {verb}")
    return session.code, session.seat


async def own_board(session: Session, room: Room) -> tuple[BoardView | None, int | None]:
    """The caller's board and version while a race runs or after it; else nothing."""
    if session.seat is None or session.code is None or room.phase in ("lobby", "countdown"):
        return None, None
    record = await session.services.store.load_player(session.code, session.seat)
    if record is None:
        return None, None
    state = engine.from_bytes(record.state)
    session.keep_game(room.race_no, state, record.version)
    if room.phase == "racing" and record.outcome == "playing":
        session.dead_end.started(record.progress, record.progress_at_ms)
    return BoardView.from_engine(engine.view(state)), record.version


async def welcome_spectator(session: Session, code: str, seq: int) -> None:
    """Queue every board as spectators may see it now (the delay applies)."""
    spectate = await session.services.hub.spectating(code)
    if spectate is not None:
        for frame in await spectate.boards(seq):
            session.hold_board(frame)


async def _racing_room(services: Services, code: str, now: int) -> Room:
    """The room; a countdown that is over starts the race first."""
    room = await services.hub.room(code)
    if room.phase == "countdown" and room.start_at_ms is not None and now >= room.start_at_ms:
        room = await settle.start(services, code, now)
        services.hub.rooms[code] = room
    if room.phase != "racing":
        hint = "the race has not started yet" if room.phase != "finished" else "the race is over"
        raise RoomError(ErrorCode.MOVE_NOT_RACING, hint)
    return room


async def _game(
    session: Session, code: str, seat: int, race_no: int
) -> tuple[engine.GameState, int]:
    """The player's game from the store, kept in the session for the race it belongs to
    (`move` takes the kept one itself)."""
    record = await session.services.store.load_player(code, seat)
    if record is None:
        raise RoomError(ErrorCode.MOVE_NOT_RACING, "no game for this seat yet")
    state = engine.from_bytes(record.state)
    session.keep_game(race_no, state, record.version)
    return state, record.version


def _apply(
    services: Services, state: engine.GameState, text: str, version: int
) -> engine.GameState:
    try:
        return engine.play(state, engine.Move.parse(text))
    except engine.InvalidMove as error:
        services.metrics.rejected.inc()
        raise MoveRefused(ErrorCode.MOVE_INVALID, str(error), version) from None
    except engine.NoEffect as error:
        services.metrics.rejected.inc()
        raise MoveRefused(ErrorCode.MOVE_NO_EFFECT, str(error), version) from None
    except engine.IllegalMove as error:
        services.metrics.rejected.inc()
        raise MoveRefused(ErrorCode.MOVE_ILLEGAL, str(error), version) from None


async def _resent_or_stale(session: Session, message: MakeMove, version: int) -> MoveOk:
    """A move id seen before is answered again; anything else is a stale version."""
    return await _resent_or(_stale(version), session, message)


async def _resent_or(refusal: RoomError, session: Session, message: MakeMove) -> MoveOk:
    """The reply of the first time if this move id was applied before, else `refusal`.

    A player whose last move ended their race may resend it after a lost
    connection; it is answered, not refused as too late. The same id with other
    move text is refused (`move/id-reused`): the text sent now was not applied.
    """
    code, seat = session.code or "", session.seat or 0
    store = session.services.store
    seen = await store.find_move(code, seat, message.move_id)
    if seen is None:
        raise refusal
    board, _ = await own_board(session, await session.services.hub.room(code))
    record = await store.load_player(code, seat)
    if board is None or record is None:
        raise refusal
    first = await store.move_log(code, seat, seen.version - 1, seen.version - 1)
    if [entry.text for entry in first] != [message.move]:
        raise _reused(message.move_id, first[0].text if first else "", record.version)
    return MoveOk(
        id=message.id,
        move_id=message.move_id,
        version=seen.version,
        board=board,
        at_ms=record.progress_at_ms,
        progress=record.progress,
        outcome=engine.outcome(engine.from_bytes(record.state)).value,
    )


def _reused(move_id: str, first_text: str, version: int) -> MoveRefused:
    text = f"move id {move_id!r} was already used for {first_text!r}; use a new move id"
    return MoveRefused(ErrorCode.MOVE_ID_REUSED, text, version)


def _stale(version: int) -> MoveRefused:
    text = f"your game is at version {version}; send sync for your board"
    return MoveRefused(ErrorCode.MOVE_STALE_VERSION, text, version)


async def _finish_after_move(
    services: Services, code: str, seat: int, outcome: str, now: int
) -> None:
    """`_finish` for a committed move: a failure is logged, and the ack still goes out.

    The game record holds the finish; the room catches up at its next deadline
    (`settle.reconcile`).
    """
    try:
        await _finish(services, code, seat, outcome, now)
    except Exception:
        services.metrics.errors.inc()
        _log.exception("recording the finish of seat %s in room %s failed", seat, code)


async def _finish(services: Services, code: str, seat: int, outcome: str, now: int) -> None:
    """Record in the room that the player is done, and close the race if all are."""
    await settle.record_finish(services, code, seat, outcome, now)
    await settle.close_race(services, code, now)
