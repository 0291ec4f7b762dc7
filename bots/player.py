"""A bot's decisions in its seat: what to type next and how long to wait first.

A `BotPlayer` reads its seat through a small interface (`SeatView`: the room,
its seat, its board and version, the server's dead-end notice), so the same
decisions drive a bot in any client: the terminal client's runner and the
house bot process. It says ``ready`` once enough players are seated (so a
race never starts half-empty), and again if a change of game or settings
unreadies it, then sends the move its level picks from its board
(`bots.strategy.choose_at`) after the level's think time sped up ``speed``
times (`bots.levels`), or, for a plan with a strategy instead of a level,
the move `bots.strategy.choose` picks, at most ``speed`` moves a second. It
sends ``resign`` when it finds no move that makes progress, or when the
server's dead-end notice holds for its board. An expert first asks for a
``hint`` for each new board in a practice room, and plays the hinted move
when the server found a winning line from there; when it found none within
its budget, or refused (server busy), or the room is ranked (where the
server never gives hints), the bot finds its own move: a strong bot's search
over deals sampled from the cards it cannot see (`bots.strong`; the expert
strategy without a level plays careful). Once the race is over it is done
(``""``), unless it races again at each rematch.

Every choice and every pause comes from the plan's seed, moves and pace from
RNGs of their own (a bot's moves do not depend on its pace), so a bot
replays exactly. `next_line` may search for a while (the strong level): a
caller can run it off its event loop on a frozen `Sight` of the seat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from bots.levels import Level, think_time
from bots.strategy import DEFAULT_STRATEGY, BotStrategy, Tried, board_strategy, choose, choose_at
from engine import Move, game_from_view, legal_moves
from protocol import BoardView, Hint, RoomSnapshot
from protocol.follow import Seen, dead_end_holds

DEFAULT_SPEED = 2.0
"""Moves a second."""
WORDS = ("ready", "resign", "hint")
"""The lines a bot types that are not moves."""


@dataclass(frozen=True, slots=True)
class BotPlan:
    name: str
    strategy: BotStrategy = DEFAULT_STRATEGY
    speed: float = DEFAULT_SPEED
    seats: int | None = None
    """Say ready once this many players are seated; ``None``: every seat."""
    seed: int = 0
    """Seeds the bot's choices and its pace."""
    rematches: bool = False
    """Stay seated after a race, to race again when the host calls a rematch;
    ``False``: one race, then the bot is done."""
    level: Level | None = None
    """Play and pace by this level (see `bots.levels`), ``speed``
    then scaling its think times; ``None``: by ``strategy``, ``speed`` moves a second."""
    ready_pause_s: float = 0.0
    """The longest pause before saying ready (drawn from the pace RNG, from a
    quarter of it up), sped up ``speed`` times; 0: none."""


class SeatView(Seen, Protocol):
    """What a bot reads of its seat (`protocol.follow.Follower` has it all)."""

    @property
    def seat(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class Sight:
    """A seat as it stood at one instant, for a decision taken off the event loop."""

    room: RoomSnapshot | None
    seat: int | None
    board: BoardView | None
    version: int | None
    dead_end: tuple[int, int] | None


def sight_of(view: SeatView) -> Sight:
    return Sight(view.room, view.seat, view.board, view.version, view.dead_end)


class BotPlayer:
    def __init__(self, plan: BotPlan) -> None:
        self.plan = plan
        self.tried: Tried = set()
        self.rng = random.Random(plan.seed)
        self.pace = random.Random(f"pace:{plan.seed}")
        self.choices = 1
        """The legal moves of the board the bot last chose a move on."""
        self.readied: tuple[object, ...] | None = None
        """The race, game and settings the bot said ready for, until the room shows it
        ready (a change of game or settings makes everyone unready: it says so again)."""
        self.resigned = 0
        self.last_try: tuple[BoardView, str] | None = None
        self.hinted: tuple[int, int] | None = None
        """The race number and game version the bot last asked a hint for."""

    def next_line(self, view: SeatView, hint: Hint | None = None) -> str | None:
        """The line to type now; ``None`` to wait for news, ``""`` once the bot is done.

        ``hint`` is the server's reply to the bot's last ``hint``, if that was the
        last reply it had.
        """
        room = view.room
        if room is None:
            return None
        if room.phase == "finished":
            return "" if not self.plan.rematches else None
        if room.phase == "lobby":
            return self._ready_line(view, room)
        if room.phase == "racing":
            return self._race_line(view, room, hint)
        return None

    def pause_s(self, line: str) -> float:
        """Seconds to wait before typing ``line``: a levelled bot's think time for
        the board's number of choices, or one move's share of ``speed`` moves a
        second; the ready pause before ``ready``; none before a resign or hint."""
        speed = self.plan.speed
        if line == "ready":
            longest = self.plan.ready_pause_s
            return self.pace.uniform(longest / 4, longest) / speed if longest else 0.0
        if line in WORDS:
            return 0.0
        if self.plan.level is None:
            return 1 / speed
        return think_time(self.plan.level, self.choices, self.pace) / speed

    def undo(self, line: str) -> None:
        """The server did not take ``line`` (too many requests): let it be sent again."""
        if line == "ready":
            self.readied = None
        elif line == "resign":
            self.resigned = 0
        elif line == "hint":
            self.hinted = None
        elif self.last_try is not None:
            self.tried.discard(self.last_try)

    def _ready_line(self, view: SeatView, room: RoomSnapshot) -> str | None:
        if any(player.seat == view.seat and player.ready for player in room.players):
            self.readied = None
            return None
        wanted = self.plan.seats or room.settings.max_players
        asked = (room.race_no, room.variant, room.settings)
        if self.readied == asked or len(room.players) < wanted:
            return None
        self.readied = asked
        return "ready"

    def _race_line(self, view: SeatView, room: RoomSnapshot, hint: Hint | None) -> str | None:
        board = view.board
        mine = [player for player in room.players if player.seat == view.seat]
        if board is None or board.outcome != "playing" or not mine:
            return None
        if mine[0].outcome != "playing" or self.resigned == room.race_no:
            return None
        if dead_end_holds(view):
            self.resigned = room.race_no
            return "resign"
        if self._wants_hint(room, view.version):
            self.hinted = (room.race_no, view.version or 0)
            return "hint"
        move = _hinted_move(hint, view.version) or self._own_move(board)
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


def _hinted_move(hint: Hint | None, version: int | None) -> Move | None:
    """The move of the hint just received, if it is for this board and wins."""
    if hint is None or hint.version != version or hint.move is None:
        return None
    return Move.parse(hint.move)
