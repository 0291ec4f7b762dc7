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
from server.conn.seat import Seat
from server.conn.session import Session
from server.lifecycle import race as races
from server.lifecycle.room import Room, RoomError, Transition
from server.race_flow import settle
from server.services import Services
from server.store import AlreadyFinished, Duplicate, MoveCommit, VersionConflict

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

    Three steps: the refusals (the room, the player, the version, the move
    itself: `_played`), the commit (`_commit_of`, `Store.commit_move`), and after
    it the kept game, the ack and the dead-end watch (`_acked`). A move that ends
    the player's race records the finish before the ack goes out; the events it
    causes are held and follow the ack. On the common path the only await is the
    commit: the steps around it are plain functions.
    """
    received = time.perf_counter()  # latency of real work, so real time, not the race clock
    services, place = session.services, session.place
    code, seat = place.player(ErrorCode.MOVE_SPECTATOR, "play")
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
    kept = place.game_for(room.race_no)
    state, version = kept if kept is not None else await _game(services, place, seat, room.race_no)
    if message.expected_version != version:
        return await _resent_or_stale(session, message, version)
    new_state = _played(services, state, message.move, version)
    seen = engine.view(new_state)
    try:
        result = await services.store.commit_move(
            _commit_of(code, seat, version, new_state, seen, message=message, now=now)
        )
    except (VersionConflict, AlreadyFinished) as refused:
        place.forget_game()
        raise _uncommitted(refused) from None
    if isinstance(result, Duplicate):
        place.forget_game()
        return await _resent_or_stale(session, message, result.version)
    ack = _acked(
        session,
        message,
        result.version,
        race_no=room.race_no,
        new_state=new_state,
        seen=seen,
        now=now,
        received=received,
    )
    if seen.outcome != engine.Outcome.PLAYING:
        await _finish_after_move(services, code, seat, seen.outcome, now)
    return ack


def _played(
    services: Services, state: engine.GameState, text: str, version: int
) -> engine.GameState:
    """The game after the move; refused past the cap or when the engine refuses it
    (a move that changes nothing, `engine.NoEffect`, is refused: nothing is stored)."""
    if version >= MAX_MOVES:
        raise MoveRefused(ErrorCode.MOVE_LIMIT, f"at most {MAX_MOVES} moves in one race", version)
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


def _commit_of(
    code: str,
    seat: int,
    version: int,
    new_state: engine.GameState,
    seen: engine.View,
    *,
    message: MakeMove,
    now: int,
) -> MoveCommit:
    """What the store commits for a move played on ``version``, with its event."""
    outcome, progress = seen.outcome, seen.progress
    event = encode_progress(seat, progress, version + 1, outcome)
    state = engine.to_bytes(new_state)
    return MoveCommit(
        code, seat, version, state, message.move, message.move_id, now, progress, outcome, event
    )


def _uncommitted(refused: VersionConflict | AlreadyFinished) -> RoomError:
    """The reply to a commit the store refused: the game moved on, or the race is over."""
    if isinstance(refused, VersionConflict):
        return _stale(refused.current)
    return RoomError(ErrorCode.MOVE_FINISHED, "your race is over")


def _acked(
    session: Session,
    message: MakeMove,
    version: int,
    *,
    race_no: int,
    new_state: engine.GameState,
    seen: engine.View,
    now: int,
    received: float,
) -> bytes:
    """After the commit: keep the game, pack the ack, count it, re-arm the dead-end
    watch; a move that ends the player's race holds the room's events until the ack."""
    place, metrics = session.place, session.services.metrics
    place.keep_game(race_no, new_state, version)
    ack = encode_move_ok(message.id, message.move_id, version, seen, now)
    metrics.moves.inc()
    metrics.move_latency.observe(time.perf_counter() - received)
    place.dead_end.moved(seen.progress, now)
    if seen.outcome != engine.Outcome.PLAYING:
        place.dead_end.stop()
        session.pause()
    return ack


async def resign(session: Session, message: Resign) -> Ok:
    services = session.services
    code, seat = session.place.player(ErrorCode.MOVE_SPECTATOR, "resign")
    now = services.clock.now_ms()
    room = await _racing_room(services, code, now)
    races.check_move(room, seat, now)
    if await services.store.finish_player(code, seat, "resigned", now) is None:
        raise RoomError(ErrorCode.MOVE_FINISHED, "your race is over")
    session.place.forget_game()
    await _finish(services, code, seat, "resigned", now)
    return Ok(id=message.id)


async def end_race(session: Session, message: EndRace) -> Ok:
    """Host only: everyone still racing finishes with ``timeout`` now."""
    services = session.services
    code, seat = session.place.player(ErrorCode.MOVE_SPECTATOR, "end the race")
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


async def own_board(session: Session, room: Room) -> tuple[BoardView | None, int | None]:
    """The caller's board and version while a race runs or after it; else nothing."""
    if (
        session.place.seat is None
        or session.place.code is None
        or room.phase in ("lobby", "countdown")
    ):
        return None, None
    record = await session.services.store.load_player(session.place.code, session.place.seat)
    if record is None:
        return None, None
    state = engine.from_bytes(record.state)
    session.place.keep_game(room.race_no, state, record.version)
    if room.phase == "racing" and record.outcome == "playing":
        session.place.dead_end.started(record.progress, record.progress_at_ms)
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
    services: Services, place: Seat, seat: int, race_no: int
) -> tuple[engine.GameState, int]:
    """The player's game from the store, kept in their place for the race it belongs to
    (`move` takes the kept one itself)."""
    record = await services.store.load_player(place.code or "", seat)
    if record is None:
        raise RoomError(ErrorCode.MOVE_NOT_RACING, "no game for this seat yet")
    state = engine.from_bytes(record.state)
    place.keep_game(race_no, state, record.version)
    return state, record.version


async def _resent_or_stale(session: Session, message: MakeMove, version: int) -> MoveOk:
    """A move id seen before is answered again; anything else is a stale version."""
    return await _resent_or(_stale(version), session, message)


async def _resent_or(refusal: RoomError, session: Session, message: MakeMove) -> MoveOk:
    """The reply of the first time if this move id was applied before, else `refusal`.

    A player whose last move ended their race may resend it after a lost
    connection; it is answered, not refused as too late. The same id with other
    move text is refused (`move/id-reused`): the text sent now was not applied.
    """
    code, seat = session.place.code or "", session.place.seat or 0
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
