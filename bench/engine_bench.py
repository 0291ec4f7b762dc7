"""Engine speed and play figures, per variant, on one core.

For each variant: validated `apply` calls per second, `legal_moves` calls per
second, random play-outs per second, the largest storage form seen in those
play-outs, and the greedy player's win rate over seeded deals. Beside them,
the engine's share of a move on the race server (the move's text parsed and
played, the new state's view and storage form) as moves per second and as
its cost in `apply` calls measured in the same run.

Run: python -m bench.engine_bench [--games N] [--seconds S]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from bench.greedy import play
from engine import (
    VARIANT_KEYS,
    GameState,
    Move,
    Outcome,
    apply,
    legal_moves,
    new_game,
    outcome,
    to_bytes,
    view,
)
from engine import play as player_move

PLAYOUT_MOVES = 500


@dataclass(frozen=True, slots=True)
class Figures:
    variant: str
    applies: float
    moves: float
    legal: float
    playouts: float
    max_bytes: int
    wins: int
    games: int


def random_playout(variant: str, seed: bytes, rng: random.Random) -> list[tuple[GameState, Move]]:
    """A random legal game until it ends or reaches the move cap, as (state, move) pairs."""
    state = new_game(variant, seed)
    pairs: list[tuple[GameState, Move]] = []
    while len(pairs) < PLAYOUT_MOVES and outcome(state) == Outcome.PLAYING:
        move = rng.choice(legal_moves(state))
        pairs.append((state, move))
        state = apply(state, move)
    return pairs


def rate(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` done per second, repeating it for about ``seconds``."""
    done, start = 0, time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def measure(variant: str, games: int, seconds: float) -> Figures:
    rng = random.Random(variant)
    pairs = [pair for number in range(20) for pair in random_playout(variant, b"%d" % number, rng)]
    states = [state for state, _ in pairs]

    def applies() -> int:
        for state, move in pairs:
            apply(state, move)
        return len(pairs)

    texts = [(state, move.format()) for state, move in pairs]

    def server_moves() -> int:
        for state, text in texts:
            after = player_move(state, Move.parse(text))
            view(after)
            to_bytes(after)
        return len(texts)

    def legal() -> int:
        for state in states:
            legal_moves(state)
        return len(states)

    playouts = iter(range(1 << 30))

    def playout() -> int:
        random_playout(variant, b"p%d" % next(playouts), rng)
        return 1

    wins = sum(play(variant, b"greedy %d" % n).outcome == Outcome.WON for n in range(games))
    return Figures(
        variant=variant,
        applies=rate(applies, seconds),
        moves=rate(server_moves, seconds),
        legal=rate(legal, seconds),
        playouts=rate(playout, seconds),
        max_bytes=max(len(to_bytes(state)) for state in states),
        wins=wins,
        games=games,
    )


def report(figures: Figures) -> str:
    win_rate = 100 * figures.wins / figures.games if figures.games else 0.0
    return (
        f"{figures.variant:<20}{figures.applies:>12,.0f}"
        f"{figures.moves:>12,.0f}{figures.applies / figures.moves:>9.1f}x"
        f"{figures.legal:>14,.0f}"
        f"{figures.playouts:>12,.1f}{figures.max_bytes:>10}"
        f"{win_rate:>10.1f}% of {figures.games}"
    )


def pin_to_one_core() -> None:
    """Keep the figures per core where the system lets a process choose."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="greedy games per variant")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per speed figure")
    args = parser.parse_args()
    pin_to_one_core()
    print("engine, one core")
    print(
        f"{'variant':<20}{'apply/s':>12}{'move/s':>12}{'applies':>10}"
        f"{'legal/s':>14}{'playouts/s':>12}{'bytes':>10}  greedy wins"
    )
    for variant in VARIANT_KEYS:
        print(report(measure(variant, args.games, args.seconds)), flush=True)


if __name__ == "__main__":
    main()
