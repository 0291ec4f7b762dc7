"""The live event feed of the rooms one server process has sockets in.

Theory of operation: a Redis pub/sub connection is subscribed to this process's
channel of every watched room; a protocol callback reads it (`_pubsub.Listener`), and
the feed remembers the last seq it delivered per room. The store hands the events it
commits straight to the feed (`own`); a room's other events are published by the
committing script to each process in the room's watcher set but the committer, so no
process parses its own events back. Payloads carry their seq, so the feed drops what
it already delivered. An event whose seq jumps ahead is held: with players of one
room on several processes, a process's own commit often comes back before another
process's earlier event has been read from the pub/sub connection, and that event
fills the hole a moment later. A hole still open after `GAP_WAIT_S` is filled from the
room's stream. Every subscribe confirmation puts this process in the room's watcher
set and then triggers such a catch-up (one room after another): that covers events
committed before it was listening, and everything missed while Redis was away (when
the pub/sub connection is lost, a reader task opens a fresh one with backoff and
subscribes again, and a Redis that lost the watcher set gets it back). If the stream
was trimmed past what is missing, the feed yields a `RoomGap` and carries on from
the room's current seq. Each room subscribed again on a new connection is reported
to `rejoined` once what it caught up has been handed out: while this process was not
listening, the other processes may have taken it for gone and let its people go
(`server.liveness.sweep`).
Items go out in batches, once per turn of the event loop, to the sink the feed was
made with (the hub's): a batch costs one callback where an item each would cost a
task switch, and events this process commits go out after the request that committed
them has had its reply written.
Any other failure of the reader is logged and handled like a lost connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.store._pubsub import Listener
from server.store._reads import StoreReads
from server.store._types import StoreUnavailable

_log = logging.getLogger(__name__)
_LINK_ERRORS = (RedisConnectionError, RedisTimeoutError, OSError, StoreUnavailable)
_FIRST_DELAY_S = 0.05
_MAX_DELAY_S = 2.0
_PAGE = 500
GAP_WAIT_S = 0.05
"""How long an event ahead of the next seq waits for the missing ones to arrive by
pub/sub before they are read from the room's stream (real time, like reconnects)."""


class FeedEvent(NamedTuple):
    """A committed event of a watched room, in seq order per room."""

    code: str
    seq: int
    body: bytes


class RoomGap(NamedTuple):
    """Events of the room were lost to stream trimming: send its clients a fresh snapshot.

    Events go on from the room's seq at the time of the gap, so some may be at or
    below the snapshot's seq: a socket takes only events above the seq it has seen.
    """

    code: str


FeedItem = FeedEvent | RoomGap
Sink = Callable[[list[FeedItem]], None]
Rejoined = Callable[[str], None]


class RoomFeed:
    """Hands `FeedEvent` and `RoomGap` items of the watched rooms to `sink`, in order, in
    batches, and each room subscribed again after a lost connection to `rejoined`; see
    the module doc. Both are called without awaiting and must not block."""

    def __init__(self, store: StoreReads, sink: Sink, rejoined: Rejoined | None = None) -> None:
        self._store = store
        self._sink = sink
        self._rejoined = rejoined
        self._rejoining: set[str] = set()
        """Rooms subscribed again on a new connection, reported once caught up."""
        self._last: dict[str, int] = {}
        self._ahead: dict[str, dict[int, bytes]] = {}
        """Events past a hole in the seqs, by room and seq, until the hole is filled."""
        self._gap_timers: dict[str, asyncio.TimerHandle] = {}
        self._codes: dict[bytes, str] = {}
        """Room code by the channel this process hears it on."""
        self._batch: list[FeedItem] = []
        self._flush_handle: asyncio.Handle | None = None
        self._listener: Listener | None = None
        self._confirmed: deque[str] = deque()
        """Rooms whose subscription Redis confirmed, to be joined (`_join`) in turn."""
        self._joining: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._catch_ups: set[asyncio.Task[None]] = set()
        self._loop = asyncio.get_running_loop()
        """Kept: Python 3.11 makes a system call each time the running loop is asked for."""
        self._task = asyncio.create_task(self._run())

    @property
    def rooms(self) -> frozenset[str]:
        """Codes of the rooms being watched."""
        return frozenset(self._last)

    async def watch(self, code: str, after_seq: int) -> None:
        """Deliver the room's events after `after_seq` (the seq of the caller's snapshot).

        Watching a room that is already watched changes nothing.
        """
        if code in self._last:
            return
        self._last[code] = after_seq
        channel = self._store.channel(code).encode()
        self._codes[channel] = code
        if self._listener is not None:
            with contextlib.suppress(*_LINK_ERRORS):
                self._listener.subscribe(channel)

    async def unwatch(self, code: str) -> None:
        """Stop delivering the room's events (items already queued still come out)."""
        if self._last.pop(code, None) is None:
            return
        self._rejoining.discard(code)
        self._ahead.pop(code, None)
        if timer := self._gap_timers.pop(code, None):
            timer.cancel()
        channel = self._store.channel(code).encode()
        self._codes.pop(channel, None)
        if self._listener is not None:
            with contextlib.suppress(*_LINK_ERRORS):
                await self._store.remove_watcher(code)
                if self._listener is not None:
                    self._listener.unsubscribe(channel)

    def own(self, code: str, seq: int, body: bytes) -> None:
        """An event this process committed just now (it is not echoed by pub/sub)."""
        self._take(code, seq, body)

    async def close(self) -> None:
        """Stop the reader and drop the pub/sub connection; items not yet handed out are dropped."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()
        for timer in self._gap_timers.values():
            timer.cancel()
        self._gap_timers.clear()
        for task in self._catch_ups:
            task.cancel()
        await asyncio.gather(*self._catch_ups, return_exceptions=True)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        await self._disconnect()

    async def _run(self) -> None:
        delay = _FIRST_DELAY_S
        again = False
        while True:
            try:
                listener = await self._connect(again)
                delay = _FIRST_DELAY_S
                raise await listener.lost
            except Exception as error:
                again = True
                if not isinstance(error, _LINK_ERRORS):
                    _log.exception("room feed reader failed; reconnecting")
                await self._disconnect()
                # Pacing reconnects to Redis is real time, not the race clock (`server.clock`).
                await asyncio.sleep(delay)
                delay = min(delay * 2, _MAX_DELAY_S)

    async def _connect(self, again: bool) -> Listener:
        """Connect and subscribe (`again`: a connection was lost, or could not be opened)."""
        async with self._lock:
            pool = self._store.link_settings()
            listener = await Listener.open(pool, self._published, self._subscribed)
            self._listener = listener
            self._rejoining = set(self._codes.values()) if again else set()
            if self._codes:
                listener.subscribe(*self._codes)
            return listener

    async def _disconnect(self) -> None:
        async with self._lock:
            if self._joining is not None:
                self._joining.cancel()
                await asyncio.gather(self._joining, return_exceptions=True)
            self._confirmed.clear()
            listener, self._listener = self._listener, None
            if listener is not None:
                listener.close()

    def _published(self, channel: bytes, data: bytes) -> None:
        code = self._codes.get(channel)
        if code is not None:
            head, _, body = data.partition(b"\n")
            self._take(code, int(head), body)

    def _subscribed(self, channel: bytes) -> None:
        code = self._codes.get(channel)
        if code is not None:
            self._confirmed.append(code)
            if self._joining is None:
                self._joining = asyncio.create_task(self._join())

    async def _join(self) -> None:
        """For each confirmed room in turn: be a watcher, catch up from the stream, and
        report a room subscribed again.

        A failure gives the connection up, so that it is opened and joined again.
        """
        try:
            while self._confirmed:
                code = self._confirmed.popleft()
                if code in self._last:
                    await self._store.add_watcher(code)
                    await self._catch_up(code)
                if code in self._rejoining and self._rejoined is not None:
                    self._rejoining.discard(code)
                    # After the batch handing out what it caught up, scheduled before this.
                    asyncio.get_running_loop().call_soon(self._rejoined, code)
        except Exception as error:
            if self._listener is not None:
                self._listener.fail(error)  # `_run` logs it unless the link broke
        finally:
            self._joining = None

    def _take(self, code: str, seq: int, body: bytes) -> None:
        """Deliver the event if it is the room's next, hold it if it is past a hole."""
        last = self._last.get(code)
        if last is None or seq <= last:
            return
        if seq > last + 1:
            self._ahead.setdefault(code, {})[seq] = body
            if code not in self._gap_timers:
                self._gap_timers[code] = self._loop.call_later(GAP_WAIT_S, self._gap_open, code)
            return
        self._push(code, seq, body)
        self._push_ahead(code)

    def _push_ahead(self, code: str) -> None:
        """Deliver the held events that now follow on; drop those already delivered."""
        ahead = self._ahead.get(code)
        while ahead:
            last = self._last.get(code, 0)
            for seq in [seq for seq in ahead if seq <= last]:
                del ahead[seq]
            if (body := ahead.pop(last + 1, None)) is None:
                break
            self._push(code, last + 1, body)
        if not ahead:
            self._ahead.pop(code, None)
            if timer := self._gap_timers.pop(code, None):
                timer.cancel()

    def _gap_open(self, code: str) -> None:
        """The hole was not filled by pub/sub in time: read it from the stream."""
        self._gap_timers.pop(code, None)
        if self._ahead.get(code):
            task = asyncio.create_task(self._fill_gap(code))
            self._catch_ups.add(task)
            task.add_done_callback(self._catch_ups.discard)

    async def _fill_gap(self, code: str) -> None:
        """Read the hole from the stream unless pub/sub has filled it meanwhile.

        After the loop was held up (by other work, or a busy machine) the gap timer is
        due at once, before the replies waiting on the pub/sub connection are read: one
        turn of the loop lets them in, and they usually hold what is missing.
        """
        await asyncio.sleep(0)
        if self._ahead.get(code):
            await self._catch_up(code)

    def _push(self, code: str, seq: int, body: bytes) -> None:
        if self._last.get(code, seq) < seq:
            self._last[code] = seq
            self._hand_out(FeedEvent(code, seq, body))

    def _hand_out(self, item: FeedItem) -> None:
        """Add `item` to the batch the next turn of the loop hands out."""
        self._batch.append(item)
        if self._flush_handle is None:
            self._flush_handle = self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        batch, self._batch, self._flush_handle = self._batch, [], None
        self._sink(batch)

    async def _catch_up(self, code: str) -> None:
        """Deliver what the room's stream holds after the last delivered seq."""
        while code in self._last:
            events = await self._store.events_since(code, self._last[code], limit=_PAGE)
            if events is None:
                await self._report_gap(code)
                return
            for seq, body in events:
                self._push(code, seq, body)
            if len(events) < _PAGE:
                self._push_ahead(code)
                return

    async def _report_gap(self, code: str) -> None:
        record = await self._store.load_room(code)
        if code in self._last and record is not None:
            self._last[code] = record.seq
        self._hand_out(RoomGap(code))
        self._push_ahead(code)
