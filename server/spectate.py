"""Boards for spectators, each shown the room's spectator delay after its move.

Players never see each other's boards (in the same deal a board would reveal
the stock). Spectators do, late by ``spectator_delay_s``: on each ``progress``
event the board is due that much later. The boards are rebuilt here from the
stored move log, one seat at a time, by replaying the new moves onto the last
board shown; a burst of moves is coalesced into one board. Board frames carry
the seq of the ``progress`` event they belong to and are not kept in the room's
event log (see docs/protocol.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

from websockets.asyncio.server import ServerConnection, broadcast

import engine
from protocol import BoardShown, BoardView, encode, encode_event_frame
from server.clock import Clock, Timer
from server.room import Room
from server.store import Store


class Watcher(Protocol):
    @property
    def conn(self) -> ServerConnection: ...


class Audience(Protocol):
    """What the boards need of the hub: the store, and who watches a room now."""

    @property
    def store(self) -> Store: ...

    def spectators(self, code: str) -> Sequence[Watcher]: ...


class Spectate:
    def __init__(self, hub: Audience, code: str, room: Room, clock: Clock) -> None:
        self.hub, self.code, self.clock = hub, code, clock
        self.race_no = room.race_no
        self.delay_s = room.settings.spectator_delay_s
        self.start = engine.new_game(room.variant, room.seed)
        self.games = {player.seat: (self.start, 0) for player in room.players}
        self.wanted: dict[int, tuple[int, int]] = {}
        self.workers: dict[int, asyncio.Task[None]] = {}
        self.handles: set[Timer] = set()

    def close(self) -> None:
        for handle in self.handles:
            handle.cancel()
        for task in self.workers.values():
            task.cancel()

    def progress(self, seat: int, version: int, seq: int) -> None:
        """A move was committed: its board is due after the delay, to whoever watches then."""
        if self.delay_s == 0:
            self._want(seat, version, seq)
            return
        handle: Timer

        def due() -> None:
            self.handles.discard(handle)
            self._want(seat, version, seq)

        handle = self.clock.call_later(self.delay_s, due)
        self.handles.add(handle)

    async def boards(self, seq: int) -> list[bytes]:
        """Every board as it stood `delay` ago, framed at `seq`, for a new spectator."""
        seen_by = self.clock.now_ms() - self.delay_s * 1000
        frames = []
        for seat in sorted(self.games):
            log = await self.hub.store.move_log(self.code, seat)
            shown = [entry for entry in log if entry.ms <= seen_by]
            state = _play(self.start, [entry.text for entry in shown])
            at_ms = shown[-1].ms if shown else 0
            frames.append(self._frame(seat, state, len(shown), at_ms, seq))
        return frames

    def _want(self, seat: int, version: int, seq: int) -> None:
        if not self.hub.spectators(self.code):
            return
        if version > self.wanted.get(seat, (0, 0))[0]:
            self.wanted[seat] = (version, seq)
        if seat not in self.workers:
            self.workers[seat] = asyncio.create_task(self._work(seat))

    async def _work(self, seat: int) -> None:
        try:
            while seat in self.wanted:
                version, seq = self.wanted.pop(seat)
                state, at_ms = await self._advance(seat, version)
                targets = [member.conn for member in self.hub.spectators(self.code)]
                broadcast(targets, self._frame(seat, state, version, at_ms, seq))
        finally:
            del self.workers[seat]

    async def _advance(self, seat: int, version: int) -> tuple[engine.GameState, int]:
        state, have = self.games.get(seat, (self.start, 0))
        if version <= have:
            return state, 0
        log = await self.hub.store.move_log(self.code, seat, have, version - 1)
        state = _play(state, [entry.text for entry in log])
        self.games[seat] = (state, have + len(log))
        return state, log[-1].ms if log else 0

    @staticmethod
    def _frame(seat: int, state: engine.GameState, version: int, at_ms: int, seq: int) -> bytes:
        board = BoardView.from_engine(engine.view(state))
        shown = BoardShown(seat=seat, board=board, version=version, at_ms=at_ms)
        return encode_event_frame(seq, encode(shown))


def _play(state: engine.GameState, moves: list[str]) -> engine.GameState:
    """Replay logged moves (each was validated when it was committed)."""
    for text in moves:
        state = engine.apply(state, engine.Move.parse(text))
    return state
