"""A session entering and leaving a room: its token, the room's events, snapshots.

`enter` hands a new token out and starts the room's events after the seq the
reply shows; `resume` brings a token back on a new socket, with the events it
missed or a fresh snapshot; `disconnected` is a socket closing. The room
requests that seat someone (`server.requests.lobby`, and the challenge rooms)
end in `enter`.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable

from protocol import ErrorCode, Joined, RaceOver, Resume, Resumed, RoomSnapshot, Snapshot
from server import room_store
from server.conn.session import Session
from server.lifecycle import presence
from server.lifecycle import race as races
from server.lifecycle import room as rooms
from server.lifecycle.room import Room, RoomError, Transition
from server.requests import play

__all__ = [
    "current_snapshot",
    "disconnected",
    "enter",
    "leaving",
    "require_member",
    "require_outside",
    "resume",
    "token_hash",
]


RESUME_EVENTS = 1000


token_hash = presence.token_hash


async def resume(session: Session, message: Resume) -> Resumed | Snapshot:
    require_outside(session)
    async with session.services.token_lock(token_hash(message.token)):
        return await _resume(session, message)


async def _resume(session: Session, message: Resume) -> Resumed | Snapshot:
    services = session.services
    binding = await services.store.find_token(token_hash(message.token))
    if binding is None:
        raise RoomError(ErrorCode.AUTH_BAD_TOKEN, "unknown or expired token; join again")
    code, seat = binding
    room, _, seq = await room_store.load(services.store, code)
    if seat is not None:
        back = functools.partial(
            rooms.come_back,
            seat=seat,
            process=services.store.process,
            token=token_hash(message.token),
        )
        saved = await room_store.update(services.store, code, back)
        room, seq = saved.room, saved.seq
    else:
        watch = functools.partial(
            presence.watch, token=token_hash(message.token), process=services.store.process
        )
        saved = await room_store.update(services.store, code, watch)
        room, seq = saved.room, saved.seq
    await _replace_old_socket(session, token_hash(message.token))
    session.bind(code, seat, token_hash(message.token))
    missed = await services.store.events_since(code, message.last_seq, limit=RESUME_EVENTS)
    if missed is None or len(missed) >= RESUME_EVENTS:
        await _watch(session, code, seq)
        return await _snapshot(session, message.id, room, seq)
    await _watch(session, code, message.last_seq, missed)
    board, version = await play.own_board(session, room)
    return Resumed(id=message.id, code=code, seat=seat, board=board, version=version, seq=seq)


async def current_snapshot(session: Session, request_id: int | None) -> Snapshot:
    """The room and the caller's own board as they are now."""
    code, _ = require_member(session)
    room, _, seq = await room_store.load(session.services.store, code)
    session.saw(seq)
    return await _snapshot(session, request_id, room, seq)


async def disconnected(session: Session) -> None:
    """The socket closed: spectators and lobby players leave; racers are marked away.

    When this process is stopping, everyone stays as they were: they come back on
    another process under the same token (one who does not is let go by the other
    processes' sweep once this one is gone, `server.liveness.sweep`). A socket closing on a
    process that no longer holds its player or spectator changes nothing.

    Runs under the token's lock, so a resume of the same token on a new socket
    either comes first (this socket is then no longer in the room) or finds the
    room as this leaving left it.
    """
    if session.place.token_hash is None:
        return
    async with session.services.token_lock(session.place.token_hash):
        if session.place.code is None:
            return
        code, seat = session.place.code, session.place.seat
        services = session.services
        change = leaving(session, seat)
        await session.unbind()
        if services.stopping:
            return
        with contextlib.suppress(RoomError):
            await room_store.update(services.store, code, change)


def leaving(session: Session, seat: int | None) -> Callable[[Room], Transition]:
    """The change of the session's player (``seat``) or spectator (None) leaving now,
    unless they are back on another socket by then."""
    services = session.services
    process = services.store.process
    if seat is None:
        assert session.place.token_hash is not None
        return functools.partial(presence.unwatch, token=session.place.token_hash, process=process)
    now_ms = services.clock.now_ms()
    return functools.partial(presence.leave, seat=seat, process=process, now_ms=now_ms)


async def enter(
    session: Session, request_id: int, room: Room, seat: int | None, seq: int, *, token: str
) -> Joined:
    """Hand out `token`, start the room's events after `seq`, reply with the room."""
    await session.services.store.bind_token(token_hash(token), room.code, seat)
    session.bind(room.code, seat, token_hash(token))
    await _watch(session, room.code, seq)
    snapshot, results = await _room_view(session, room)
    return Joined(
        id=request_id,
        code=room.code,
        seat=seat,
        token=token,
        room=snapshot,
        seq=seq,
        results=results,
    )


async def _snapshot(session: Session, request_id: int | None, room: Room, seq: int) -> Snapshot:
    snapshot, results = await _room_view(session, room)
    board, version = await play.own_board(session, room)
    return Snapshot(
        id=request_id,
        code=room.code,
        seat=session.place.seat,
        room=snapshot,
        board=board,
        version=version,
        seq=seq,
        results=results,
    )


async def _room_view(session: Session, room: Room) -> tuple[RoomSnapshot, RaceOver | None]:
    """The room as clients see it, and its race's results once it is finished (with
    the move logs, which only they need)."""
    finished = room.phase == "finished"
    store = session.services.store
    stats = await room_store.load_stats(store, room.code, room, logs=finished)
    warnings = await room_store.standing_warnings(store, room.code, room)
    return rooms.snapshot(room, stats, warnings), races.results(room, stats)


async def _watch(
    session: Session, code: str, seq: int, missed: list[tuple[int, bytes]] | None = None
) -> None:
    """Join the hub's fan-out at `seq`, holding events until the reply has gone out.

    Events committed between the caller's read of the room and joining the
    fan-out are fetched from the log (`missed`, when the caller has them).
    """
    session.saw(seq)
    session.pause()
    await session.services.hub.add(code, session, seq)
    if missed is None:
        missed = await session.services.store.events_since(code, seq) or []
    for event_seq, body in missed:
        session.hold_event(event_seq, body)
    if session.place.seat is None:
        await play.welcome_spectator(session, code, seq)


async def _replace_old_socket(session: Session, token: str) -> None:
    old = session.services.by_token.get(token)
    if old is not None and old is not session:
        await old.replaced()


def require_outside(session: Session) -> None:
    if session.place.code is not None:
        raise RoomError(
            ErrorCode.ROOM_ALREADY_MEMBER, f"already in room {session.place.code}; leave first"
        )


def require_member(session: Session) -> tuple[str, int | None]:
    if session.place.code is None:
        raise RoomError(ErrorCode.ROOM_NOT_MEMBER, "join or create a room first")
    return session.place.code, session.place.seat
