"""Boards for spectators, each shown the room's spectator delay after its move.

Players never see each other's boards (in the same deal a board would reveal
the stock). Spectators do, late by ``spectator_delay_s``: on each ``progress``
event the board is due that much later. The boards are rebuilt here from the
stored move log, one seat at a time, by replaying the new moves onto the last
board shown; a burst of moves is coalesced into one board. Board frames carry
the seq of the ``progress`` event they belong to and are not kept in the room's
event log (see docs/protocol.md).

While the race is on, a board shows only what every player still racing has
seen of the deal in their own game (`engine.spectator_view`, with what they
have seen read from their stored games); the rest is hidden. When that grows
(someone turns up more of the deal, or finishes), every seat whose shown board
would change is sent again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from websockets.asyncio.server import ServerConnection, broadcast

import engine
from protocol import BoardShown, BoardView, encode, encode_event_frame
from server.clock import Clock, Timer
from server.lifecycle.room import Room
from server.store import Store


class Watcher(Protocol):
    @property
    def conn(self) -> ServerConnection: ...

    def can_send(self) -> bool:
        """False: push nothing to this watcher now (it is leaving, or too far behind)."""


class Audience(Protocol):
    """What the boards need of the hub: the store, and who watches a room now."""

    @property
    def store(self) -> Store: ...

    def spectators(self, code: str) -> Sequence[Watcher]: ...

    async def room(self, code: str) -> Room: ...


class Spectate:
    def __init__(self, hub: Audience, code: str, room: Room, clock: Clock) -> None:
        self.hub, self.code, self.clock = hub, code, clock
        self.race_no = room.race_no
        self.delay_s = room.settings.spectator_delay_s
        self.start = engine.TrackedGame.start(room.variant, room.seed, room.settings.rule_option)
        self.games = {player.seat: Shown(self.start, 0, 0) for player in room.players}
        self.sent: dict[int, BoardView] = {}
        """The board each seat was last shown as, to every spectator."""
        self.known: engine.Seen | None = engine.seen(self.start.state)
        """What all players still racing had seen when boards were last sent."""
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

    def changed(self, seq: int) -> None:
        """The room changed (a player finished, the race ended): boards may show more."""
        self._want(REVEAL, 0, seq)

    async def boards(self, seq: int) -> list[bytes]:
        """Every board as it stood `delay` ago, framed at `seq`, for a new spectator."""
        seen_by = self.clock.now_ms() - self.delay_s * 1000
        known = await self._known()
        frames = []
        for seat in sorted(self.games):
            log = await self.hub.store.move_log(self.code, seat)
            shown = [entry for entry in log if entry.ms <= seen_by]
            game = _play(self.start, [entry.text for entry in shown])
            at_ms = shown[-1].ms if shown else 0
            if len(shown) > self.games[seat].version:
                self.games[seat] = Shown(game, len(shown), at_ms)
            board = _board(game, known)
            frames.append(
                _frame(BoardShown(seat=seat, board=board, version=len(shown), at_ms=at_ms), seq)
            )
        return frames

    def _want(self, seat: int, version: int, seq: int) -> None:
        if not self.hub.spectators(self.code):
            return
        if version >= self.wanted.get(seat, (0, 0))[0]:
            self.wanted[seat] = (version, seq)
        if seat not in self.workers:
            self.workers[seat] = asyncio.create_task(self._work(seat))

    async def _work(self, seat: int) -> None:
        try:
            while seat in self.wanted:
                version, seq = self.wanted.pop(seat)
                if seat != REVEAL:
                    await self._advance(seat, version)
                known = await self._known()
                watchers = self.hub.spectators(self.code)
                targets = [member.conn for member in watchers if member.can_send()]
                for shown in self._news(seat, known):
                    broadcast(targets, _frame(shown, seq))
        finally:
            del self.workers[seat]

    def _news(self, seat: int, known: engine.Seen | None) -> list[BoardShown]:
        """The board of `seat`, then every other board that shows more than when last
        sent (a seat that has not moved shows its deal, which hides nothing)."""
        news = []
        known = _latest(self.known, known)
        others = known != self.known
        self.known = known
        for each in sorted(self.games, key=lambda other: other != seat):
            if each != seat and not others:
                continue
            shown = self.games[each]
            board = _board(shown.game, known)
            if each == seat or (shown.version and self.sent.get(each) != board):
                self.sent[each] = board
                news.append(
                    BoardShown(seat=each, board=board, version=shown.version, at_ms=shown.at_ms)
                )
        return news

    async def _advance(self, seat: int, version: int) -> None:
        shown = self.games.get(seat, Shown(self.start, 0, 0))
        if version <= shown.version:
            return
        log = await self.hub.store.move_log(self.code, seat, shown.version, version - 1)
        game = _play(shown.game, [entry.text for entry in log])
        at_ms = log[-1].ms if log else shown.at_ms
        self.games[seat] = Shown(game, shown.version + len(log), at_ms)

    async def _known(self) -> engine.Seen | None:
        """What every player still racing has seen of the deal; None once nobody races.
        A game that cannot be read counts as one that has seen only the deal."""
        room = await self.hub.room(self.code)
        if room.phase != "racing" or room.race_no != self.race_no:
            return None
        records = await asyncio.gather(
            *(self.hub.store.load_player(self.code, player.seat) for player in room.players)
        )
        return engine.seen_by_all(
            engine.from_bytes(record.state) if record else self.start.state
            for record in records
            if record is None or record.outcome == "playing"
        )


REVEAL = -1
"""Stands for "every seat" in the work queue: boards are checked again, no move added."""


class Shown(NamedTuple):
    """A seat's game as spectators see it: at `version`, its last move stamped `at_ms`."""

    game: engine.TrackedGame
    version: int
    at_ms: int


def _latest(old: engine.Seen | None, new: engine.Seen | None) -> engine.Seen | None:
    """What all have seen only grows during a race, so of two reads (which workers may
    finish out of order) each part's larger value is still true."""
    if old is None or new is None:
        return None
    return engine.Seen(
        stock=max(old.stock, new.stock),
        reserve=max(old.reserve, new.reserve),
        redeals=max(old.redeals, new.redeals),
    )


def _board(game: engine.TrackedGame, known: engine.Seen | None) -> BoardView:
    return BoardView.from_engine(engine.spectator_view(game, known))


def _frame(shown: BoardShown, seq: int) -> bytes:
    return encode_event_frame(seq, encode(shown))


def _play(game: engine.TrackedGame, moves: list[str]) -> engine.TrackedGame:
    """Replay logged moves (each was validated when it was committed)."""
    for text in moves:
        game = game.apply(engine.Move.parse(text))
    return game
