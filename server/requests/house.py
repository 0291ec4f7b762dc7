"""House bot requests: the host seats a bot the server plays (`add_bot`), or frees one
(`remove_bot`); and what the server does with the seats of a house (`free_lost`).

The seat is taken in the room first, under a fresh token only the house knows;
then the house's bot process is told to play it (`server.house`). The bot
connects like any player and resumes the seat with that token. The rules of
house seats are `server.lifecycle.house`.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import AddBot, ErrorCode, Ok, RemoveBot
from server import room_store
from server.conn.session import Session
from server.house import House
from server.lifecycle import house as house_rules
from server.lifecycle import room as rooms
from server.lifecycle.room import Room, RoomError, Transition
from server.requests import entry, seating
from server.services import Services

__all__ = ["HANDLERS", "free_lost"]


def _house(session: Session) -> House:
    house = session.services.house
    if house is None or not house.available:
        text = "this server plays no house bots now; run one with `solrace bot CODE`"
        raise RoomError(ErrorCode.SERVER_NO_HOUSE_BOTS, text)
    return house


async def add_bot(session: Session, message: AddBot) -> Ok:
    code, by = session.place.player(ErrorCode.ROOM_NOT_MEMBER, "add a bot")
    house = _house(session)
    if not house.has_room():
        text = "the server's bot processes play as many bots as they may; try later"
        raise RoomError(ErrorCode.ROOM_BOT_LIMIT, text)
    if message.name is not None:
        await seating.sitter(session, message.name, bot=True)  # no account's name
    services, token = session.services, secrets.token_urlsafe(18)
    seat = -1

    def change(room: Room) -> Transition:
        nonlocal seat
        name = message.name or house_rules.bot_name(room, message.level)
        seat, result = house_rules.seat(
            room,
            by,
            name=name,
            level=message.level,
            process=services.store.process,
            token=entry.token_hash(token),
            per_room=services.config.house_bots_per_room,
        )
        return result

    await room_store.update(services.store, code, change)
    await services.store.bind_token(entry.token_hash(token), code, seat)
    house.drive(code, seat, token, message.level)
    return Ok(id=message.id)


async def remove_bot(session: Session, message: RemoveBot) -> Ok:
    code, by = session.place.player(ErrorCode.ROOM_NOT_MEMBER, "remove a bot")
    services, token = session.services, ""

    def change(room: Room) -> Transition:
        nonlocal token
        result = house_rules.remove(room, by, message.seat, services.clock.now_ms())
        token = room.player(message.seat).token
        return result

    await room_store.update(services.store, code, change)
    await services.store.unbind_token(token, code)
    if services.house is not None:
        services.house.drop(code, message.seat)
    return Ok(id=message.id)


async def free_lost(services: Services, code: str, seat: int) -> None:
    """The house gave up on `seat` for good: the room lets it go as if it had left."""

    def change(room: Room) -> Transition:
        player = next((p for p in room.players if p.seat == seat and p.house), None)
        if player is None:
            return Transition(room)
        return rooms.leave(room, seat, services.clock.now_ms())

    with contextlib.suppress(RoomError):
        await room_store.update(services.store, code, change)


HANDLERS: dict[type[Any], Callable[[Session, Any], Awaitable[Ok]]] = {
    AddBot: add_bot,
    RemoveBot: remove_bot,
}
