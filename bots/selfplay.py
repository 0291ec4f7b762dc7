"""A bot's game played through the engine alone, with no server: for the
level figures (bench) and the tests that order the levels.

Each turn the bot gets only the visible board (``engine.view`` turned into a
`BoardView`, as the client receives it) and its move is applied to the real
game, so the bot plays exactly what it would play in a room.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bots.levels import Level
from bots.strategy import Tried, choose_at
from engine import GameState, Outcome, apply, new_game, outcome, progress, view
from protocol import BoardView

MAX_MOVES = 3000
"""A safety bound only: every level resigns long before it."""


@dataclass(frozen=True, slots=True)
class Played:
    home: int
    won: bool
    moves: int
    seconds: float
    """CPU time spent choosing moves, in seconds."""
    worst: float
    """The longest one move took to choose, in seconds."""
    line: tuple[str, ...]
    """The moves played."""


def play_out(game: GameState, level: Level, seed: int) -> Played:
    """Play ``game`` to its end (or the bot's resignation) as a bot of ``level``."""
    tried: Tried = set()
    rng = random.Random(seed)
    line: list[str] = []
    spent, worst = 0.0, 0.0
    while len(line) < MAX_MOVES and outcome(game) == Outcome.PLAYING:
        board = BoardView.from_engine(view(game))
        start = time.process_time()
        move = choose_at(level, board, tried, rng)
        took = time.process_time() - start
        spent, worst = spent + took, max(worst, took)
        if move is None:
            break
        tried.add((board, move.format()))
        game = apply(game, move)
        line.append(move.format())
    won = outcome(game) == Outcome.WON
    return Played(progress(game), won, len(line), spent, worst, tuple(line))


def play_deal(variant: str, deal: int, level: Level, seed: int = 0) -> Played:
    """`play_out` on public deal ``deal`` of ``variant``, the deal a room of that number gets."""
    return play_out(new_game(variant, b"deal:%d" % deal), level, seed)
