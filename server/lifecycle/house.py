"""House bots as pure transitions over `server.lifecycle.room.Room`.

A house bot is a seat the host asks the server for (`add_bot`); the server's bot
process plays it over an ordinary connection (`server.house`). It is a bot seat
marked ``house``: never host, never rated, and it keeps its seat when its socket
closes (`server.lifecycle.presence.leave`), since the bot process comes back.
The host frees it with `remove`; the last person leaving a lobby takes the house
bots along (`server.lifecycle.room.leave`). When the process that played a room's
house bots is gone, whichever process sweeps the room takes them over (`adopt`)
under new tokens, and its own bot process plays them from then on.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace

from protocol import BotLevel, ErrorCode
from server.lifecycle import room as rooms
from server.lifecycle.room import Room, RoomError, Transition

__all__ = ["adopt", "bot_name", "house_seats", "remove", "seat"]


def house_seats(room: Room) -> list[int]:
    """The seats house bots hold."""
    return [player.seat for player in room.players if player.house]


def bot_name(room: Room, level: BotLevel) -> str:
    """A name for a new house bot of `level` that nobody in the room has: "Good bot",
    then "Good bot 2", ..."""
    taken = {player.name.casefold() for player in room.players}
    base = f"{level.capitalize()} bot"
    number = 1
    while (name := base if number == 1 else f"{base} {number}").casefold() in taken:
        number += 1
    return name


def seat(
    room: Room,
    by: int,
    *,
    name: str,
    level: BotLevel,
    process: str,
    token: str,
    per_room: int,
) -> tuple[int, Transition]:
    """The host (seat `by`) seats a house bot of `level` holding `token` on `process`:
    lobby only, at most `per_room` house bots in the room."""
    rooms.require_host(room, by)
    rooms.require_phase(room, "lobby")
    if len(house_seats(room)) >= per_room:
        text = f"this server allows {per_room} house bots in a room"
        raise RoomError(ErrorCode.ROOM_BOT_LIMIT, text)
    return rooms.join(room, name, process, token, bot=True, level=level, house=True)


def remove(room: Room, by: int, seat: int, now_ms: int) -> Transition:
    """The host (seat `by`) frees house bot `seat`; lobby only."""
    rooms.require_host(room, by)
    rooms.require_phase(room, "lobby")
    player = next((player for player in room.players if player.seat == seat), None)
    if player is None or not player.house:
        raise RoomError(ErrorCode.ROOM_NOT_A_BOT, f"no house bot sits in seat {seat}")
    return rooms.leave(room, seat, now_ms)


def adopt(room: Room, gone: Collection[str], process: str, tokens: Mapping[int, str]) -> Room:
    """The house bots held by the `gone` processes are held by `process` now, each
    under the token hash `tokens` gives its seat (seats it leaves out stay as they are)."""
    players = tuple(
        replace(player, process=process, token=tokens[player.seat])
        if player.house and player.process in gone and player.seat in tokens
        else player
        for player in room.players
    )
    return replace(room, players=players)
