"""Cost of spectator boards that hide what racers have not seen, per variant, on one core.

Each figure is printed beside its ideal path from the same run, as a ratio:
`TrackedGame.apply` (a move plus where its cards came from) against plain
`apply`, and `spectator_view` (with half the stock and reserve seen by all,
and no redeal) against plain `view` of the same states.

Run: python -m bench.fairview_bench [--seconds S]
"""

from __future__ import annotations

import argparse
import random

from bench.engine_bench import pin_to_one_core, rate
from engine import (
    VARIANT_KEYS,
    Move,
    Outcome,
    Seen,
    TrackedGame,
    apply,
    legal_moves,
    outcome,
    spectator_view,
    view,
)

MOVES = 300


def tracked_playout(
    variant: str, seed: bytes, rng: random.Random
) -> list[tuple[TrackedGame, Move]]:
    """A random legal game as (game before, move) pairs."""
    game = TrackedGame.start(variant, seed)
    pairs: list[tuple[TrackedGame, Move]] = []
    while len(pairs) < MOVES and outcome(game.state) == Outcome.PLAYING:
        move = rng.choice(legal_moves(game.state))
        pairs.append((game, move))
        game = game.apply(move)
    return pairs


def measure(variant: str, seconds: float) -> tuple[float, float, float, float]:
    rng = random.Random(variant)
    pairs = [pair for n in range(10) for pair in tracked_playout(variant, b"%d" % n, rng)]
    games = [game for game, _ in pairs]
    half = Seen(stock=30, reserve=20, redeals=0)

    def plain_apply() -> int:
        for game, move in pairs:
            apply(game.state, move)
        return len(pairs)

    def tracked_apply() -> int:
        for game, move in pairs:
            game.apply(move)
        return len(pairs)

    def plain_view() -> int:
        for game in games:
            view(game.state)
        return len(games)

    def masked_view() -> int:
        for game in games:
            spectator_view(game, half)
        return len(games)

    return (
        rate(plain_apply, seconds),
        rate(tracked_apply, seconds),
        rate(plain_view, seconds),
        rate(masked_view, seconds),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per figure")
    args = parser.parse_args()
    pin_to_one_core()
    print("spectator boards, one core (ratio: ideal path / this path)")
    print(
        f"{'variant':<20}{'apply/s':>11}{'tracked/s':>11}{'ratio':>7}"
        f"{'view/s':>11}{'masked/s':>11}{'ratio':>7}"
    )
    for variant in VARIANT_KEYS:
        plain, tracked, shown, masked = measure(variant, args.seconds)
        print(
            f"{variant:<20}{plain:>11,.0f}{tracked:>11,.0f}{plain / tracked:>7.2f}"
            f"{shown:>11,.0f}{masked:>11,.0f}{shown / masked:>7.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
