"""Counting a room's spectators, as pure transitions over `server.room.Room`.

Theory of operation: the room keeps one `Watcher` per counted spectator, keyed by
the hash of their token, with the server process that holds their socket. A
spectator who comes back with the same token (a new socket, perhaps on another
process) takes over their entry, so they are never counted twice, whatever
happened to the old socket. A spectator who leaves is dropped only by the process
that holds them: an old socket closing late on one process cannot drop a
spectator already back on another. Entries of a process that died without a word
are dropped by the other processes' sweep (`server.sweep`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from protocol import ErrorCode, events
from protocol.limits import MAX_SPECTATORS
from server.room import Room, RoomError, Transition, Watcher

__all__ = ["drop_processes", "unwatch", "watch"]


def watch(room: Room, token: str, process: str) -> Transition:
    """Count a spectator (any phase), or move their entry to `process` if counted."""
    others = tuple(watcher for watcher in room.watchers if watcher.token != token)
    if len(others) == len(room.watchers) and len(others) >= MAX_SPECTATORS:
        raise RoomError(ErrorCode.ROOM_FULL, "no room for more spectators")
    return _counted(room, (*others, Watcher(token, process)))


def unwatch(room: Room, token: str, process: str) -> Transition:
    """The spectator left `process`; nothing if they are held elsewhere by now."""
    left = Watcher(token, process)
    return _counted(room, tuple(watcher for watcher in room.watchers if watcher != left))


def drop_processes(room: Room, processes: Collection[str]) -> Transition:
    """Forget the spectators that `processes`, gone, were holding."""
    kept = tuple(watcher for watcher in room.watchers if watcher.process not in processes)
    return _counted(room, kept)


def _counted(room: Room, watchers: tuple[Watcher, ...]) -> Transition:
    """The room with `watchers`; the new count is news only if it changed."""
    changed = replace(room, watchers=watchers)
    if len(watchers) == len(room.watchers):
        return Transition(changed)
    return Transition(changed, (events.SpectatorCount(count=len(watchers)),))
