"""Local fan-out: the sessions of this process, by room, fed from the store's live feed.

Theory of operation. Every committed room event reaches every server process
that has a socket in the room through the store's feed, in seq order, in batches
handed to the hub from a loop callback (no task switch per event). The hub
frames each event once and writes it to the room's local sessions that have not
seen it yet. Events other than ``progress`` change the room itself, so the hub
drops its cached copy and re-arms the room's timer (countdown end, time limit)
from the fresh room; a ``ghost_progress`` event, several a second in a challenge
room, says all it changed, so the hub applies it to its cached copy instead
(`server.lifecycle.ghosts.with_shown`) and re-arms the timer from that, with no
read. Any process with a socket in a room may fire its timer,
and the deadline poller of any process may fire it too (`server.liveness.poller`); the
guarded save lets exactly one of them change the room. A room the feed subscribed
to again after losing its connection is handed to ``on_rejoined`` (`server.liveness.reclaim`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Protocol

import msgpack
from websockets.asyncio.server import ServerConnection, broadcast

from protocol import encode_event_frame
from server import room_store
from server.clock import Clock, Timer
from server.fanout.spectate import Spectate
from server.lifecycle import ghosts
from server.lifecycle import race as races
from server.lifecycle.room import Room
from server.store import FeedEvent, RoomGap, Store

_log = logging.getLogger(__name__)
CLOSE_GRACE_S = 2.0
"""How long room work in flight (a race start, a time limit) may take to finish on close."""


class Seated(Protocol):
    """Where a member sits (`server.conn.seat.Seat`)."""

    @property
    def seat(self) -> int | None:
        """None for a spectator."""


class Member(Protocol):
    """What the hub needs of a session."""

    conn: ServerConnection

    @property
    def place(self) -> Seated: ...

    def admit(self, seq: int, frame: bytes) -> bool:
        """True: send `frame` now; False: held for later, already seen, or not to be sent."""

    def can_send(self) -> bool:
        """False: push nothing to this member now (it is leaving, or too far behind)."""

    def race_started(self, progress: int, start_at_ms: int) -> None:
        """A race in the room is on, its deal bringing ``progress`` cards home."""

    async def resync(self) -> None: ...


RoomWork = Callable[[str], Awaitable[None]]


class Hub:
    def __init__(
        self,
        store: Store,
        on_deadline: RoomWork,
        clock: Clock,
        on_rejoined: RoomWork | None = None,
    ) -> None:
        self.store, self.on_deadline, self.clock = store, on_deadline, clock
        self.on_rejoined = on_rejoined
        self.members: dict[str, set[Member]] = {}
        self.rooms: dict[str, Room] = {}
        self.timers: dict[str, Timer] = {}
        self.changed: dict[str, int] = {}
        """Seq of the latest event that changed each room (not ``progress``)."""
        self.armed: dict[str, int] = {}
        """Seq of the room read that armed each room's timer."""
        self.spectate: dict[str, Spectate] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.backlog: list[FeedEvent | RoomGap] | None = None
        """Items that came in while a gap's members were being resynced (None: none is)."""
        self.resyncing: asyncio.Task[None] | None = None
        self.feed = store.feed(self._take, self._rejoined)
        self.closed: asyncio.Future[None] | None = None

    async def __aenter__(self) -> Hub:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self, grace_s: float = CLOSE_GRACE_S) -> None:
        """Stop the feed and the timers; room work in flight gets `grace_s` to finish.

        Safe to call again or concurrently: every call returns once the first is done.
        """
        if self.closed is None:
            self.closed = asyncio.ensure_future(self._close(grace_s))
        await asyncio.shield(self.closed)

    async def _close(self, grace_s: float) -> None:
        if self.resyncing is not None:
            self.resyncing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.resyncing
        for timer in self.timers.values():
            timer.cancel()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=grace_s)
        left = [*self.tasks]
        for spectate in self.spectate.values():
            left += spectate.workers.values()
            spectate.close()
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)

    def all_members(self) -> list[Member]:
        return [member for group in self.members.values() for member in group]

    async def add(self, code: str, member: Member, seq: int) -> None:
        """Deliver the room's events after `seq` to `member` from now on."""
        group = self.members.get(code)
        if group is None:
            self.members[code] = group = set()
            await self.feed.watch(code, seq)
            self._spawn(self._refresh(code))
        group.add(member)

    async def remove(self, code: str, member: Member) -> None:
        group = self.members.get(code)
        if group is None:
            return
        group.discard(member)
        if not group:
            del self.members[code]
            self.rooms.pop(code, None)
            self.changed.pop(code, None)
            self.armed.pop(code, None)
            if timer := self.timers.pop(code, None):
                timer.cancel()
            if spectate := self.spectate.pop(code, None):
                spectate.close()
            await self.feed.unwatch(code)

    async def room(self, code: str) -> Room:
        """The room as last seen (cached while it has local sessions)."""
        cached = self.rooms.get(code)
        if cached is None:
            cached, _ = await self._load(code)
        return cached

    async def _load(self, code: str) -> tuple[Room, int]:
        """Read the room; cache it unless an event newer than the read came in meanwhile."""
        room, _, seq = await room_store.load(self.store, code)
        if code in self.members and seq >= self.changed.get(code, 0):
            self.rooms[code] = room
        return room, seq

    async def spectating(self, code: str) -> Spectate | None:
        """The room's spectator boards, set up now if a race has been dealt."""
        self._arm_spectate(code, await self.room(code))
        return self.spectate.get(code)

    def spectators(self, code: str) -> list[Member]:
        return [m for m in self.members.get(code, ()) if m.place.seat is None]

    def _take(self, items: list[FeedEvent | RoomGap]) -> None:
        """A batch from the feed. Items after a gap wait until its members are resynced."""
        if self.closed is not None:
            return
        if self.backlog is not None:
            self.backlog += items
            return
        for at, item in enumerate(items):
            if isinstance(item, RoomGap):
                self.backlog = items[at:]
                self.resyncing = asyncio.create_task(self._resync())
                return
            self._deliver_safely(item.code, item.seq, item.body)

    def _rejoined(self, code: str) -> None:
        """The feed subscribed to the room again, after the events it missed meanwhile."""
        if self.closed is None and code in self.members and self.on_rejoined is not None:
            self._spawn(self.on_rejoined(code))

    async def _resync(self) -> None:
        """Work through the backlog in order: resync each gap's members, deliver events."""
        try:
            while self.backlog:
                item = self.backlog.pop(0)
                if not isinstance(item, RoomGap):
                    self._deliver_safely(item.code, item.seq, item.body)
                    continue
                for member in list(self.members.get(item.code, ())):
                    try:
                        await member.resync()
                    except Exception:
                        _log.exception("resyncing a member of room %s failed", item.code)
        finally:
            self.backlog = self.resyncing = None

    def _deliver_safely(self, code: str, seq: int, body: bytes) -> None:
        try:
            self._deliver(code, seq, body)
        except Exception:
            _log.exception("delivering an event of room %s failed", code)

    def _deliver(self, code: str, seq: int, body: bytes) -> None:
        group = self.members.get(code)
        if not group:
            return
        frame = encode_event_frame(seq, body)
        broadcast([member.conn for member in group if member.admit(seq, frame)], frame)
        event = msgpack.unpackb(body)
        if event["type"] == "progress":
            self._show_progress(code, event["seat"], event["moves"], seq)
        elif event["type"] == "ghost_progress" and self._ghost_shown(code, event, seq):
            return
        else:
            if event["type"] == "race_started":
                for member in group:
                    member.race_started(event["board"]["progress"], event["start_at_ms"])
            self.changed[code] = seq
            self.rooms.pop(code, None)
            self._spawn(self._refresh(code))
            if spectate := self.spectate.get(code):
                spectate.changed(seq)

    def _show_progress(self, code: str, seat: int, moves: int, seq: int) -> None:
        """Hand a move to the spectator boards of its race. Until the refresh after the
        room's last change has set them up (the race has just started, or restarted),
        the boards are set up from the room as it is now, then shown the move."""
        spectate = self.spectate.get(code)
        if spectate is not None and self.armed.get(code, -1) >= self.changed.get(code, -1):
            spectate.progress(seat, moves, seq)
        elif self.spectators(code):
            self._spawn(self._progress_later(code, seat, moves, seq))

    def _ghost_shown(self, code: str, event: dict[str, int], seq: int) -> bool:
        """Apply a ghost step to the cached room and re-arm its timer from it; False
        (reload instead) if there is no cached room, or its timer waits for a reload."""
        cached = self.rooms.get(code)
        if cached is None or self.armed.get(code, -1) < self.changed.get(code, -1):
            return False
        room = ghosts.with_shown(cached, event["race_no"], event["ghost"], event["at_ms"])
        if room is None:
            return False
        self.rooms[code] = room
        self.changed[code] = self.armed[code] = seq
        self._arm(code, room)
        return True

    async def _progress_later(self, code: str, seat: int, moves: int, seq: int) -> None:
        if spectate := await self.spectating(code):
            spectate.progress(seat, moves, seq)

    async def _refresh(self, code: str) -> None:
        """Reload the room, re-arm its timer and its spectator boards.

        Refreshes may finish out of order; one that read an older room than an
        earlier-finished refresh leaves the timer alone.
        """
        room, seq = await self._load(code)
        if code not in self.members or seq < self.armed.get(code, -1):
            return
        self.armed[code] = seq
        self._arm(code, room)
        self._arm_spectate(code, room)

    def _arm(self, code: str, room: Room) -> None:
        """Set the room's timer to its next deadline."""
        if timer := self.timers.pop(code, None):
            timer.cancel()
        due = races.deadline(room)
        if due is not None:
            self.timers[code] = self.clock.call_at(due, lambda: self._fire(code))

    def _arm_spectate(self, code: str, room: Room) -> None:
        current = self.spectate.get(code)
        if room.phase not in ("racing", "finished") or code not in self.members:
            return
        if current is not None and current.race_no == room.race_no:
            return
        if current is not None:
            current.close()
        self.spectate[code] = Spectate(self, code, room, self.clock)

    def _fire(self, code: str) -> None:
        self.timers.pop(code, None)
        self._spawn(self.on_deadline(code))

    def _spawn(self, work: Awaitable[None]) -> None:
        async def guarded() -> None:
            try:
                await work
            except Exception:
                _log.exception("room task failed")

        task = asyncio.create_task(guarded())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
