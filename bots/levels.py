"""Bot levels: how well a bot plays and how fast, from beginner to expert.

A level is a strength and a pace. The strength names the strategy a bot
picks by and how often it slips: a *miss* passes over the best class of
move it found for the next one (a card it could have sent home stays where
it is), a *poor move* is any untried legal move, shuffles included. The
pace is a think time before each move that grows with the number of legal
moves, varies from move to move (log-normally, as people's times do), and
now and then takes a pause of a few seconds, so no two moves are timed
alike. Every draw comes from the bot's own seeded RNG, so a bot replays
exactly from its seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Literal

Level = Literal["beginner", "casual", "good", "strong", "expert"]
LEVELS: tuple[Level, ...] = ("beginner", "casual", "good", "strong", "expert")
DEFAULT_LEVEL: Level = "good"
LevelPlay = Literal["greedy", "careful", "strong", "expert"]
"""What a level picks its moves by (see `bots.strategy`)."""


@dataclass(frozen=True, slots=True)
class LevelSpec:
    play: LevelPlay
    miss: float
    """Chance a move is picked from the next class down instead of the best."""
    poor: float
    """Chance a move is any untried legal one."""
    think_s: float
    """Think time of a board with one legal move, before variation."""
    per_choice_s: float
    """Think time added per doubling of the legal moves."""
    pause: float
    """Chance of a pause of `PAUSE_S` seconds on top of the think time."""


PAUSE_S = (2.0, 5.0)
"""Bounds of a pause, drawn uniformly."""
SPREAD = 0.35
"""Sigma of the log-normal variation of think times."""

SPECS: dict[Level, LevelSpec] = {
    "beginner": LevelSpec("greedy", miss=0.2, poor=0.05, think_s=2.0, per_choice_s=0.8, pause=0.1),
    "casual": LevelSpec("careful", miss=0.15, poor=0.0, think_s=1.4, per_choice_s=0.5, pause=0.07),
    "good": LevelSpec("careful", miss=0.0, poor=0.0, think_s=1.0, per_choice_s=0.35, pause=0.05),
    "strong": LevelSpec("strong", miss=0.0, poor=0.0, think_s=0.7, per_choice_s=0.25, pause=0.04),
    "expert": LevelSpec("expert", miss=0.0, poor=0.0, think_s=0.5, per_choice_s=0.2, pause=0.03),
}


def parse_level(text: str) -> Level:
    """A level from its name or its number (1 beginner to 5 expert); `ValueError` else."""
    key = text.strip().lower()
    if key.isdigit() and 1 <= int(key) <= len(LEVELS):
        return LEVELS[int(key) - 1]
    for level in LEVELS:
        if level == key:
            return level
    raise ValueError(f"a level is one of {', '.join(LEVELS)} or 1-{len(LEVELS)}, not {text!r}")


def think_time(level: Level, choices: int, rng: random.Random) -> float:
    """Seconds to think before playing on a board with ``choices`` legal moves."""
    spec = SPECS[level]
    base = spec.think_s + spec.per_choice_s * math.log2(max(1, choices))
    seconds = base * rng.lognormvariate(0.0, SPREAD)
    if rng.random() < spec.pause:
        seconds += rng.uniform(*PAUSE_S)
    return seconds


def level_name(name: str, level: Level) -> str:
    """A bot's name carrying its level, as the lobby shows it."""
    return f"{name} ({level})"
