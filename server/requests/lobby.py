"""Room requests: create, join, leave, settings, ready, rematch, sync, and the table
of every request's handler.

Each handler checks the session, applies a pure `server.lifecycle.room` transition under
the room's version guard, and returns the reply; the transition's events reach
every member through the hub. Moves and resignations are in `server.requests.play`;
who a seat takes (an account or a guest) is `server.requests.seating`; entering,
resuming and leaving a room's events is `server.requests.entry`; the account
requests are `server.requests.accounts`.
"""

from __future__ import annotations

import contextlib
import functools
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
    Ready,
    RequestRematch,
    Resume,
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
    entry,
    hints,
    house,
    play,
    seating,
)

__all__ = ["current_snapshot", "disconnected", "handle"]

current_snapshot = entry.current_snapshot
disconnected = entry.disconnected

Handler = Callable[[Session, Any], Awaitable[Reply]]


async def handle(session: Session, message: ClientMessage) -> Reply:
    """The reply to one request (events it causes go out through the hub)."""
    return await HANDLERS[type(message)](session, message)


def new_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


async def ping(session: Session, message: Ping) -> Pong:
    return Pong(id=message.id, server_ms=session.services.clock.now_ms())


async def hello_again(session: Session, message: Any) -> NoReturn:
    raise RoomError(ErrorCode.PROTO_NO_HELLO, "hello was already agreed")


async def create_room(session: Session, message: CreateRoom) -> Joined:
    entry.require_outside(session)
    store, config = session.services.store, session.services.config
    who = await seating.sitter(session, message.name, message.bot, message.level)
    token = secrets.token_urlsafe(18)
    holder = {
        "process": store.process,
        "token": entry.token_hash(token),
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
    return await entry.enter(session, message.id, created.room, 0, 0, token=token)


async def join_room(session: Session, message: JoinRoom) -> Joined:
    entry.require_outside(session)
    seating.count_join_attempt(session)
    token = secrets.token_urlsafe(18)
    seat: int | None = None
    process = session.services.store.process
    player = message.role == "player"
    who = (
        await seating.sitter(session, message.name, message.bot, message.level) if player else None
    )

    def change(room: Room) -> Transition:
        nonlocal seat
        if who is None:
            return presence.watch(room, entry.token_hash(token), process, session.account)
        provisional_races = session.services.config.provisional_races
        held_by = entry.token_hash(token)
        seated = who.seat(room.variant, provisional_races)
        seat, result = rooms.join(room, who.name, process, held_by, **seated)
        return result

    saved = await room_store.update(session.services.store, message.code, change)
    return await entry.enter(session, message.id, saved.room, seat, saved.seq, token=token)


async def leave(session: Session, message: Leave) -> Ok:
    """Under the token's lock, like a resume or a close of the same token (and the
    room taking back what it let go of this process's sockets, `server.liveness.reclaim`)."""
    entry.require_member(session)
    token = session.place.token_hash
    assert token is not None
    async with session.services.token_lock(token):
        code, seat = entry.require_member(session)
        await room_store.update(session.services.store, code, entry.leaving(session, seat))
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
    return await entry.current_snapshot(session, message.id)


HANDLERS: dict[type[Any], Handler] = {
    CreateRoom: create_room,
    JoinRoom: join_room,
    Resume: entry.resume,
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
    **house.HANDLERS,
    JoinChallenge: functools.partial(
        challenge_rooms.join_challenge, enter=entry.enter, hash_token=entry.token_hash
    ),
    RaceDaily: functools.partial(daily.race_daily, enter=entry.enter, hash_token=entry.token_hash),
    GetDaily: daily.get_daily,
}
