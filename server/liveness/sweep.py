"""Lets go of the players and spectators of server processes that died without a word.

Theory of operation. A process that leaves cleanly lets its sockets' players and
spectators leave (`server.requests.entry.disconnected`), or keeps them while it stops so
that they come back elsewhere under the same token. A process killed outright
cannot: its players stay present and its spectators counted (`server.lifecycle.presence`).
What it loses for certain is its pub/sub subscription to the room's events, which
Redis drops with the connection. So every `period_s` of its clock each process
looks at the rooms it has sockets in (the only rooms anyone here sees) and asks
Redis which other processes holding players or spectators there still listen to
the room. A process found not listening in two sweeps in a row is taken as gone
(`presence.drop_processes`): its lobby seats are freed, its racers marked away
(the host role moves on), its spectators dropped; its house bots, if this process
plays house bots, are taken over here under new tokens (`server.lifecycle.house.adopt`)
and this process's bot process plays them from then on. One look alone could catch a
live process between seating someone and subscribing, or resubscribing after a
Redis restart. A room nobody here is in is swept by whichever process gets a
socket in it. The same look tells whether this process listens to each of its rooms;
where it does, `reclaim` (`server.liveness.reclaim`) takes back what the room let go of its
live sockets, should another process have taken it for gone while it was cut off
from Redis (nothing is read or written when the room holds them all here).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable

from protocol import BotLevel
from server import room_store
from server.clock import Clock
from server.fanout.hub import Hub
from server.house import House
from server.lifecycle import house as house_rules
from server.lifecycle import presence
from server.lifecycle.room import Room, RoomError, Transition
from server.liveness.periodic import Periodic
from server.store import Store

_log = logging.getLogger(__name__)

__all__ = ["PresenceSweep"]

Reclaim = Callable[[str, Room], Awaitable[None]]


class PresenceSweep:
    """Every `period_s` of `clock`, lets go of those held by processes found gone twice."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        clock: Clock,
        period_s: float,
        reclaim: Reclaim,
        *,
        house: House | None = None,
    ) -> None:
        self.store, self.hub, self.clock, self.period_s = store, hub, clock, period_s
        self.reclaim, self.house = reclaim, house
        self.silent: set[tuple[str, str]] = set()
        """(room code, process) pairs found not listening by the last sweep."""
        self.swept_ms = -1
        """Clock time at which the last finished sweep began."""
        self._swept = asyncio.Event()
        self._loop = Periodic(clock, period_s, self.sweep, "sweeping for processes gone", _log)

    def start(self) -> None:
        self._loop.start()

    async def close(self) -> None:
        await self._loop.close()

    async def sweep(self) -> None:
        """Look once; let go of those held by the processes silent now and last time,
        take back this process's own let go while it listens."""
        began_ms = self.clock.now_ms()
        rooms: dict[str, Room] = {}
        for code in list(self.hub.members):
            with contextlib.suppress(RoomError):
                rooms[code] = await self.hub.room(code)
        mine = {(code, self.store.process) for code in rooms}
        held = {
            (code, process) for code, room in rooms.items() for process in presence.holders(room)
        }
        held -= mine
        listening = await self.store.listening(held | mine)
        silent = held - listening
        gone, self.silent = silent & self.silent, silent
        by_room: dict[str, set[str]] = {}
        for code, process in gone:
            by_room.setdefault(code, set()).add(process)
        for code, processes in by_room.items():
            await self._drop(code, processes)
        for code, _ in mine & listening:
            await self.reclaim(code, rooms[code])
        self.swept_ms = began_ms
        self._swept.set()

    async def _drop(self, code: str, processes: set[str]) -> None:
        """Let go of what `processes` held in room `code`, but take over its house bots
        when this process plays house bots."""
        taken: dict[int, tuple[str, BotLevel]] = {}

        def drop(room: Room) -> Transition:
            taken.clear()
            if self.house is not None:
                room = self._adopt(room, processes, taken)
            return presence.drop_processes(room, processes, self.clock.now_ms())

        with contextlib.suppress(RoomError):
            await room_store.update(self.store, code, drop)
            for seat, (token, level) in taken.items():
                await self.store.bind_token(presence.token_hash(token), code, seat)
                if self.house is not None:
                    self.house.drive(code, seat, token, level)

    def _adopt(self, room: Room, gone: set[str], taken: dict[int, tuple[str, BotLevel]]) -> Room:
        """`room` with the house bots of `gone` held here under new tokens, kept in `taken`."""
        for player in room.players:
            if player.house and player.process in gone and player.level is not None:
                taken[player.seat] = (secrets.token_urlsafe(18), player.level)
        hashes = {seat: presence.token_hash(token) for seat, (token, _) in taken.items()}
        return house_rules.adopt(room, gone, self.store.process, hashes)

    async def swept_since(self, when_ms: int) -> None:
        """Wait until a sweep that began at `when_ms` or later has finished."""
        while self.swept_ms < when_ms:
            self._swept.clear()
            await self._swept.wait()
