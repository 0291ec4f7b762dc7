"""The hub hands each member a room's events in order, a lost stretch as a resync first."""

from __future__ import annotations

import asyncio

import msgpack
from websockets.asyncio.server import ServerConnection

from protocol.models import Settings
from server.clock import ManualClock
from server.fanout.hub import Hub
from server.lifecycle import room as rooms
from tests.conftest import OpenStore

CODE = "HUBTST"


class Seated:
    seat: int | None = 0


class Recorder:
    """A member that notes what the hub hands it; its resync waits for `resynced`."""

    conn: ServerConnection
    """Never set: the recorder admits no frame to be sent."""

    def __init__(self) -> None:
        self.place = Seated()
        self.seen: list[object] = []
        self.resynced = asyncio.Event()
        self.changed = asyncio.Event()

    def admit(self, seq: int, frame: bytes) -> bool:
        self._note(seq)
        return False

    def can_send(self) -> bool:
        return True

    def race_started(self, progress: int, start_at_ms: int) -> None:
        self._note("race_started")

    async def resync(self) -> None:
        self._note("resync")
        await self.resynced.wait()

    def _note(self, what: object) -> None:
        self.seen.append(what)
        self.changed.set()

    async def saw(self, count: int) -> list[object]:
        while len(self.seen) < count:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), timeout=10)
        return self.seen


def _progress(moves: int) -> bytes:
    return msgpack.packb({"type": "progress", "seat": 0, "moves": moves})  # type: ignore[no-any-return]


async def _noop(code: str) -> None:
    return None


async def test_events_after_a_gap_wait_for_the_members_resync(open_store: OpenStore) -> None:
    store = await open_store(stream_maxlen=5)
    lobby = rooms.to_bytes(
        rooms.create(CODE, "little-forty", Settings(), "Ada", b"", process="p1", token="t-Ada").room
    )
    await store.create_room(CODE, lobby)
    await store.save_room(CODE, 0, lobby, [_progress(1)] * 300)
    member = Recorder()
    async with Hub(store, _noop, ManualClock()) as hub:
        await hub.add(CODE, member, 0)  # the stream no longer holds seqs 1 to 295 of 300
        assert await member.saw(1) == ["resync"]
        await store.save_room(CODE, 1, lobby, [_progress(2), _progress(3)])
        for _ in range(20):
            await asyncio.sleep(0)
        assert member.seen == ["resync"]
        member.resynced.set()
        assert await member.saw(3) == ["resync", 301, 302]
