"""Room requests: create, join, resume, leave, settings, ready, rematch, sync.

Each handler checks the session, applies a pure `server.lifecycle.room` transition under
the room's version guard, and returns the reply; the transition's events reach
every member through the hub. Moves and resignations are in `server.requests.play`;
who a seat takes (an account or a guest) is `server.requests.seating`, and the account
requests are `server.requests.accounts`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import secrets
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, NoReturn

from protocol import (
    AskHint,
    ClientMessage,
    CreateRoom,
    ErrorCode,
    GetDaily,
    Hello,
    JoinChallenge,
    Joined,
    JoinRoom,
    Leave,
    Ok,
    Ping,
    Pong,
    RaceDaily,
    RaceOver,
    Ready,
    RequestRematch,
    Resume,
    Resumed,
    RoomSnapshot,
    SetSettings,
    Snapshot,
    Sync,
)
from protocol.limits import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH
from server import room_store
from server.conn.session import Reply, Session
from server.lifecycle import presence
from server.lifecycle import race as races
from server.lifecycle import room as rooms
from server.lifecycle.room import Room, RoomError, Transition
from server.race_flow import records
from server.requests import (
    accounts,
    challenge_rooms,
    challenges,
    daily,
    deals,
    hints,
    play,
    seating,
)

__all__ = ["current_snapshot", "disconnected", "handle"]

Handler = Callable[[Session, Any], Awaitable[Reply]]
RESUME_EVENTS = 1000


async def handle(session: Session, message: ClientMessage) -> Reply:
    """The reply to one request (events it causes go out through the hub)."""
    return await HANDLERS[type(message)](session, message)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


async def ping(session: Session, message: Ping) -> Pong:
    return Pong(id=message.id, server_ms=session.services.clock.now_ms())


async def hello_again(session: Session, message: Any) -> NoReturn:
    raise RoomError(ErrorCode.PROTO_NO_HELLO, "hello was already agreed")


async def create_room(session: Session, message: CreateRoom) -> Joined:
    _require_outside(session)
    store, config = session.services.store, session.services.config
    who = await seating.sitter(session, message.name, message.bot)
    token = secrets.token_urlsafe(18)
    holder = {
        "process": store.process,
        "token": token_hash(token),
        **who.seat(message.variant, config.provisional_races),
    }
    async with deals.fresh_secret(session.services, message.variant, message.settings) as secret:
        for _ in range(16):
            code = new_code()
            created = rooms.create(
                code, message.variant, message.settings, who.name, secret, **holder
            )
            if await store.create_room(code, rooms.to_bytes(created.room)):
                break
        else:
            raise RoomError(ErrorCode.SERVER_BUSY, "could not find a free room code; try again")
    await store.expire_room(code, config.idle_room_ttl_s)
    return await _enter(session, message.id, created.room, 0, 0, token=token)


async def join_room(session: Session, message: JoinRoom) -> Joined:
    _require_outside(session)
    seating.count_join_attempt(session)
    token = secrets.token_urlsafe(18)
    seat: int | None = None
    process = session.services.store.process
    player = message.role == "player"
    who = await seating.sitter(session, message.name, message.bot) if player else None

    def change(room: Room) -> Transition:
        nonlocal seat
        if who is None:
            return presence.watch(room, token_hash(token), process, session.account)
        provisional_races = session.services.config.provisional_races
        seat, result = rooms.join(
            room, who.name, process, token_hash(token), **who.seat(room.variant, provisional_races)
        )
        return result

    saved = await room_store.update(session.services.store, message.code, change)
    return await _enter(session, message.id, saved.room, seat, saved.seq, token=token)


async def resume(session: Session, message: Resume) -> Resumed | Snapshot:
    _require_outside(session)
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


async def leave(session: Session, message: Leave) -> Ok:
    """Under the token's lock, like a resume or a close of the same token (and the
    room taking back what it let go of this process's sockets, `server.liveness.reclaim`)."""
    _require_member(session)
    token = session.place.token_hash
    assert token is not None
    async with session.services.token_lock(token):
        code, seat = _require_member(session)
        await room_store.update(session.services.store, code, _leaving(session, seat))
        await session.services.store.unbind_token(token, code)
        await session.unbind()
    return Ok(id=message.id)


async def set_settings(session: Session, message: SetSettings) -> Ok:
    code, seat = session.place.player(ErrorCode.ROOM_NOT_MEMBER, "do this")
    services, variant, settings = session.services, message.variant, message.settings
    room, _, _ = await room_store.load(services.store, code)
    drawing: AbstractAsyncContextManager[bytes | None] = contextlib.nullcontext(None)
    if rooms.needs_new_deal(room, variant, settings):
        rooms.require_host(room, seat)  # refusals come before the pool's
        rooms.require_phase(room, "lobby")
        drawing = deals.fresh_secret(services, variant, settings)
    accounts_seated = (player.account for player in room.players if player.account)
    ratings = await seating.seat_ratings(services, accounts_seated, variant)
    async with drawing as secret:
        change = functools.partial(
            rooms.set_settings,
            seat=seat,
            variant=variant,
            settings=settings,
            secret=secret,
            ratings=ratings,
        )
        await room_store.update(services.store, code, change)
    return Ok(id=message.id)


async def ready(session: Session, message: Ready) -> Ok:
    code, seat = session.place.player(ErrorCode.ROOM_NOT_MEMBER, "do this")

    def change(room: Room) -> Transition:
        return rooms.set_ready(room, seat, message.ready, session.services.clock.now_ms())

    await room_store.update(session.services.store, code, change)
    return Ok(id=message.id)


async def rematch(session: Session, message: RequestRematch) -> Ok:
    code, seat = session.place.player(ErrorCode.ROOM_NOT_MEMBER, "do this")
    store = session.services.store
    await records.record_race(session.services, code)  # the race just over is never lost
    room, _, _ = await room_store.load(store, code)
    rooms.require_host(room, seat)  # refusals come before the pool's
    rooms.require_phase(room, "finished")
    stats = await room_store.load_stats(store, code, room, logs=False)

    def change(current: Room) -> Transition:
        if current.race_no != room.race_no:
            raise RoomError(ErrorCode.ROOM_WRONG_PHASE, "that race was already rematched")
        return races.rematch(current, seat, secret, stats)

    drawing = deals.fresh_secret(session.services, room.variant, room.settings, rematch=True)
    async with drawing as secret:
        await room_store.update(store, code, change)
    await store.expire_room(code, session.services.config.idle_room_ttl_s)
    return Ok(id=message.id)


async def sync(session: Session, message: Sync) -> Snapshot:
    return await current_snapshot(session, message.id)


async def current_snapshot(session: Session, request_id: int | None) -> Snapshot:
    """The room and the caller's own board as they are now."""
    code, _ = _require_member(session)
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
        change = _leaving(session, seat)
        await session.unbind()
        if services.stopping:
            return
        with contextlib.suppress(RoomError):
            await room_store.update(services.store, code, change)


def _leaving(session: Session, seat: int | None) -> Callable[[Room], Transition]:
    """The change of the session's player (``seat``) or spectator (None) leaving now,
    unless they are back on another socket by then."""
    services = session.services
    process = services.store.process
    if seat is None:
        assert session.place.token_hash is not None
        return functools.partial(presence.unwatch, token=session.place.token_hash, process=process)
    now_ms = services.clock.now_ms()
    return functools.partial(presence.leave, seat=seat, process=process, now_ms=now_ms)


async def _enter(
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


def _require_outside(session: Session) -> None:
    if session.place.code is not None:
        raise RoomError(
            ErrorCode.ROOM_ALREADY_MEMBER, f"already in room {session.place.code}; leave first"
        )


def _require_member(session: Session) -> tuple[str, int | None]:
    if session.place.code is None:
        raise RoomError(ErrorCode.ROOM_NOT_MEMBER, "join or create a room first")
    return session.place.code, session.place.seat


HANDLERS: dict[type[Any], Handler] = {
    CreateRoom: create_room,
    JoinRoom: join_room,
    Resume: resume,
    Leave: leave,
    SetSettings: set_settings,
    Ready: ready,
    RequestRematch: rematch,
    Sync: sync,
    AskHint: hints.hint,
    Ping: ping,
    Hello: hello_again,
    play.MakeMove: play.move,
    play.Resign: play.resign,
    play.EndRace: play.end_race,
    **accounts.HANDLERS,
    **challenges.HANDLERS,
    JoinChallenge: functools.partial(
        challenge_rooms.join_challenge, enter=_enter, hash_token=token_hash
    ),
    RaceDaily: functools.partial(daily.race_daily, enter=_enter, hash_token=token_hash),
    GetDaily: daily.get_daily,
}
