"""Bots: ordinary protocol clients that race with what a player sees.

A bot is a `Session` like a person's, fed by `Bot.lines` instead of a
keyboard: it says ``ready`` once enough players are seated (so a race never
starts half-empty), and again if a change of game or settings unreadies it,
then sends the move its level picks from its board (`bots.strategy.choose_at`)
after the level's think time sped up ``speed`` times (`bots.levels`), or,
for a plan with a strategy instead of a level, the move `bots.strategy.choose`
picks, at most ``speed`` moves a second. It sends ``resign`` when it finds
no move that makes progress, or when the server's dead-end notice holds for
its board. An expert first types ``hint`` for each new board in a practice
room, and plays the hinted move when the server found a winning line from
there; when it found none within its budget, or refused (server busy), or
the room is ranked (where the server never gives hints), the bot finds its
own move: a strong bot's search over deals sampled from the cards it cannot
see (`bots.strong`; the expert strategy without a level plays careful).
While its connection is down it waits (a move typed then would be queued,
and the next refused). Its line source ends when the race is over, which
ends the session, unless the bot races again at each rematch (the bots
seated for a host do). A bot never signs in (its session has no account key)
and takes its seat marked as a bot (``bot=True`` in the entry its callers
build), so it is never rated.

A strong bot's search runs on the event loop: about a tenth of a second of
CPU per move in Little Milligan, half a second in Double Canfield 40.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from bots.levels import Level, think_time
from bots.strategy import (
    DEFAULT_STRATEGY,
    BotStrategy,
    Tried,
    board_strategy,
    choose,
    choose_at,
)
from client_cli.room import dead_end
from client_cli.room.tracker import Tracker
from client_cli.room.verify import check_race
from client_cli.session.session import Entry, Session, Write
from client_cli.words.render import render_ranking
from engine import Move, find_variant, game_from_view, legal_moves
from protocol import BoardView, Error, ErrorCode, Hint, RoomSnapshot, ServerMessage

DEFAULT_SPEED = 2.0
"""Moves a second."""

SLOWED_DOWN_PAUSE_S = 1.0
"""The wait before sending again what the server refused as too many requests."""

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class BotPlan:
    name: str
    strategy: BotStrategy = DEFAULT_STRATEGY
    speed: float = DEFAULT_SPEED
    seats: int | None = None
    """Say ready once this many players are seated; ``None``: every seat."""
    seed: int = 0
    """Seeds the random strategy."""
    rematches: bool = False
    """Stay seated after a race, to race again when the host calls a rematch;
    ``False``: one race, then the session ends."""
    level: Level | None = None
    """Play and pace by this level (see `bots.levels`), ``speed``
    then scaling its think times; ``None``: by ``strategy``, ``speed`` moves a second."""


class Bot:
    def __init__(self, session: Session, plan: BotPlan, sleep: Sleep = asyncio.sleep) -> None:
        self.session, self.plan, self.sleep = session, plan, sleep
        self.tried: Tried = set()
        self.rng = random.Random(plan.seed)
        self.pace = random.Random(f"pace:{plan.seed}")
        """Think times come from an RNG of their own: a bot's moves do not depend on its pace."""
        self.choices = 1
        """The legal moves of the board the bot last chose a move on."""
        self.readied: tuple[object, ...] | None = None
        """The race, game and settings the bot said ready for, until the room shows it
        ready (a change of game or settings makes everyone unready: it says so again)."""
        self.resigned = 0
        self.last_try: tuple[BoardView, str] | None = None
        self.hinted: tuple[int, int] | None = None
        """The race number and game version the bot last asked a hint for."""

    async def lines(self) -> AsyncIterator[str]:
        """What the bot types, one line at a time, until its race is over."""
        news = self.session.news
        while True:
            news.clear()
            line = None if self.session.reconnecting else self.next_line(self.session.tracker)
            if line == "":
                return
            if line is None:
                await news.wait()
                continue
            if line not in ("ready", "resign", "hint"):
                await self.think()
            yield line
            if _slowed_down(self.session.last_reply):
                self._undo(line)
                await self.sleep(SLOWED_DOWN_PAUSE_S)
            elif self.plan.level is None and line not in ("ready", "resign", "hint"):
                await self.sleep(1 / self.plan.speed)

    async def think(self) -> None:
        """A levelled bot's pause before a move: its level's think time for the
        board's number of choices, sped up ``speed`` times."""
        if self.plan.level is not None:
            await self.sleep(think_time(self.plan.level, self.choices, self.pace) / self.plan.speed)

    def _undo(self, line: str) -> None:
        """The server did not take ``line`` (too many requests): let it be sent again."""
        if line == "ready":
            self.readied = None
        elif line == "resign":
            self.resigned = 0
        elif line == "hint":
            self.hinted = None
        elif self.last_try is not None:
            self.tried.discard(self.last_try)

    def next_line(self, tracker: Tracker) -> str | None:
        """The line to type now; ``None`` to wait for news, ``""`` once the race is over."""
        room = tracker.room
        if room is None:
            return None
        if room.phase == "finished":
            return "" if tracker.results is not None and not self.plan.rematches else None
        if room.phase == "lobby":
            return self._ready_line(tracker)
        if room.phase == "racing":
            return self._race_line(tracker)
        return None

    def _ready_line(self, tracker: Tracker) -> str | None:
        room = tracker.room
        assert room is not None
        if any(player.seat == tracker.seat and player.ready for player in room.players):
            self.readied = None
            return None
        wanted = self.plan.seats or room.settings.max_players
        asked = (room.race_no, room.variant, room.settings)
        if self.readied == asked or len(room.players) < wanted:
            return None
        self.readied = asked
        return "ready"

    def _race_line(self, tracker: Tracker) -> str | None:
        board, room = tracker.board, tracker.room
        assert room is not None
        mine = [player for player in room.players if player.seat == tracker.seat]
        if board is None or board.outcome != "playing" or not mine:
            return None
        if mine[0].outcome != "playing" or self.resigned == room.race_no:
            return None
        if dead_end.holds(tracker):
            self.resigned = room.race_no
            return "resign"
        if self._wants_hint(room, tracker.version):
            self.hinted = (room.race_no, tracker.version or 0)
            return "hint"
        move = self._hinted_move(tracker.version) or self._own_move(board)
        if move is None:
            self.resigned = room.race_no
            return "resign"
        self.last_try = (board, move.format())
        self.tried.add(self.last_try)
        return move.format()

    def _own_move(self, board: BoardView) -> Move | None:
        """The move the bot finds itself, by its level or its strategy."""
        level = self.plan.level
        if level is None:
            return choose(board, self.tried, board_strategy(self.plan.strategy), self.rng)
        self.choices = len(legal_moves(game_from_view(board.to_view())))
        return choose_at(level, board, self.tried, self.rng)

    def _wants_hint(self, room: RoomSnapshot, version: int | None) -> bool:
        """Expert, in a practice room, and no hint asked for this board yet."""
        expert = self.plan.strategy == "expert" or self.plan.level == "expert"
        if not expert or not room.settings.practice:
            return False
        return self.hinted != (room.race_no, version or 0)

    def _hinted_move(self, version: int | None) -> Move | None:
        """The move of the hint just received, if it is for this board and wins."""
        reply = self.session.last_reply
        if not isinstance(reply, Hint) or reply.version != version or reply.move is None:
            return None
        return Move.parse(reply.move)


def _slowed_down(reply: ServerMessage | None) -> bool:
    return isinstance(reply, Error) and reply.code == ErrorCode.PROTO_RATE_LIMITED


async def run_bot(
    server: str,
    entry: Entry,
    plan: BotPlan,
    write: Write,
    on_entry: Callable[[Tracker], None] | None = None,
) -> int:
    """Play one race as a bot (or every race, for a plan with rematches), then write
    its results; the exit status.

    ``on_entry`` hears the bot's tracker once it is in its room. When the bot
    fails, the last lines its session printed are written instead.
    """
    said: list[str] = []
    session = Session(server, said.append)
    entry_task = asyncio.create_task(_tell_entry(session, on_entry))
    try:
        status = await session.run(entry, Bot(session, plan).lines())
    finally:
        entry_task.cancel()
    results = session.tracker.results
    if status != 0 or results is None or session.tracker.room is None:
        for line in said[-3:]:
            write(line)
        return status or 1
    room = session.tracker.room
    write(render_ranking(results, find_variant(room.variant).total))
    settings = room.settings
    checks = check_race(results, room.variant, settings.deal_number, option=settings.rule_option)
    for line in checks:
        write(line)
    return 0


async def _tell_entry(session: Session, on_entry: Callable[[Tracker], None] | None) -> None:
    while session.tracker.code is None:
        session.news.clear()
        await session.news.wait()
    if on_entry is not None:
        on_entry(session.tracker)
