"""Who is in a room on which server process, as pure transitions over `server.lifecycle.room.Room`.

Theory of operation: each seated player who is not away carries the process that
holds their socket (`Player.process`), set when they join, create or resume. The
room keeps one `Watcher` per counted spectator, keyed by the hash of their token,
with their process too. A spectator who comes back with the same token (a new
socket, perhaps on another process) takes over their entry, so they are never
counted twice, whatever happened to the old socket; a player who comes back takes
over their seat the same way (`server.lifecycle.room.come_back`). A socket that closes lets
its player or spectator go only if its process still holds them: an old socket
closing late on one process cannot mark away a player, or drop a spectator,
already back on another.

A process that died without a word leaves its players present and its spectators
counted; the other processes' sweep (`server.liveness.sweep`) finds it gone and calls
`drop_processes`, which lets its players leave as if their sockets had closed (a
lobby seat is freed, a racer is marked away and the host role moves on) and drops
its spectators.

A process that was only cut off from Redis for that long still has its sockets. Once
it reaches Redis again it asks, for each of them, where the room has their player or
spectator now (`standing`) and takes back what was let go (`take_back`): a racer
marked away comes back as on a resume, a spectator is counted again. A seat that is
gone, or someone else's, cannot be taken back; neither can a player or spectator
whom another process holds by now (they resumed there).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from dataclasses import replace
from typing import Literal

from protocol import ErrorCode, RoomEvent, events
from protocol.limits import MAX_SPECTATORS
from server.lifecycle import room as rooms
from server.lifecycle.room import Room, RoomError, Transition, Watcher

__all__ = [
    "Standing",
    "drop_processes",
    "holders",
    "leave",
    "standing",
    "take_back",
    "token_hash",
    "unwatch",
    "watch",
]

Standing = Literal["held", "let_go", "elsewhere", "lost"]
"""Where the room has a socket's player or spectator: held by the socket's process, let
go (a racer marked away, a spectator no longer counted), held by another process, or
lost (the seat is gone, or taken under another token)."""


def token_hash(token: str) -> str:
    """How a room keeps a seat's or a spectator's token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def watch(room: Room, token: str, process: str, account: str = "") -> Transition:
    """Count a spectator (any phase), or move their entry to `process` if counted;
    `account`, the id of the account watching ('' for a guest), is remembered."""
    others = tuple(watcher for watcher in room.watchers if watcher.token != token)
    if len(others) == len(room.watchers) and len(others) >= MAX_SPECTATORS:
        raise RoomError(ErrorCode.ROOM_FULL, "no room for more spectators")
    if account and account not in room.watched_by:
        room = replace(room, watched_by=(*room.watched_by, account))
    return _counted(room, (*others, Watcher(token, process)))


def unwatch(room: Room, token: str, process: str) -> Transition:
    """The spectator left `process`; nothing if they are held elsewhere by now."""
    left = Watcher(token, process)
    return _counted(room, tuple(watcher for watcher in room.watchers if watcher != left))


def leave(room: Room, seat: int, process: str, now_ms: int) -> Transition:
    """The player's socket on `process` closed: they leave (`server.lifecycle.room.leave`),
    unless they came back on another socket, held elsewhere by now. A house bot
    keeps its seat: the bot process that plays it comes back (`server.house`)."""
    player = room.player(seat)
    if player.house or player.process not in {"", process}:
        return Transition(room)
    return rooms.leave(room, seat, now_ms)


def holders(room: Room) -> set[str]:
    """The processes holding a present player or a counted spectator of the room."""
    players = {player.process for player in room.players if not player.away}
    return (players | {watcher.process for watcher in room.watchers}) - {""}


def drop_processes(room: Room, processes: Collection[str], now_ms: int) -> Transition:
    """`processes` are gone: their players leave, their spectators are dropped."""
    kept = tuple(watcher for watcher in room.watchers if watcher.process not in processes)
    room, published = _counted(room, kept)
    for player in room.players:
        if not player.away and player.process in processes:
            room, left = rooms.leave(room, player.seat, now_ms)
            published += left
    return Transition(room, published)


def standing(room: Room, process: str, seat: int | None, token: str) -> Standing:
    """Where the room has the player in `seat` (None: the spectator) of a socket on
    `process` that holds `token`."""
    if seat is None:
        watcher = next((watcher for watcher in room.watchers if watcher.token == token), None)
        if watcher is None:
            return "let_go"
        return "held" if watcher.process == process else "elsewhere"
    player = next((player for player in room.players if player.seat == seat), None)
    if player is None or player.token not in {"", token}:
        return "lost"
    if player.away:
        return "let_go"
    return "held" if player.process in {"", process} else "elsewhere"


def take_back(room: Room, process: str, sockets: Iterable[tuple[int | None, str]]) -> Transition:
    """The sockets on `process` (seat or None, token) are live: each racer let go comes
    back (`server.lifecycle.room.come_back`), each spectator let go is counted again while there
    is room for them; the rest stay as they are."""
    published: tuple[RoomEvent, ...] = ()
    for seat, token in sockets:
        if standing(room, process, seat, token) != "let_go":
            continue
        try:
            if seat is None:
                room, back = watch(room, token, process)
            else:
                room, back = rooms.come_back(room, seat, process, token)
        except RoomError:
            continue  # no room for more spectators: this one stays let go
        published += back
    return Transition(room, published)


def _counted(room: Room, watchers: tuple[Watcher, ...]) -> Transition:
    """The room with `watchers`; the new count is news only if it changed."""
    changed = replace(room, watchers=watchers)
    if len(watchers) == len(room.watchers):
        return Transition(changed)
    return Transition(changed, (events.SpectatorCount(count=len(watchers)),))
