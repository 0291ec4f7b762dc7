"""Practice-bot strength per variant: cards home and wins over public deals,
each strategy played through the engine on the deal the server would make.

Each turn the bot gets only the visible board (``engine.view`` turned into a
`BoardView`, as the client receives it) and its move is applied to the real
game. The yardstick is the greedy strategy measured in the same run, so the
ratio says how much further a strategy gets than greedy does. Time is given
per move on average and for the slowest choice of one move (worst), which a
bot's event loop waits for.

Run: python -m bench.bot_bench [--deals N] [--first D] [--games G ...]; the default
of 8 deals a game keeps `make bench` short (a careful Little Forty game takes
about half a minute); the figures of 50 deals need `--deals 50`.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from bots.strategy import STRATEGIES, Strategy, Tried, choose
from engine import VARIANT_KEYS, Outcome, apply, find_variant, new_game, outcome, progress, view
from protocol import BoardView

MAX_MOVES = 5000
"""A safety bound only: every strategy resigns long before it."""


@dataclass(frozen=True, slots=True)
class Played:
    home: int
    won: bool
    moves: int
    seconds: float
    worst: float
    """The longest one move took to choose, in seconds."""


def play_out(variant: str, deal: int, strategy: Strategy) -> Played:
    """One bot game on public deal ``deal``, seeing only the visible board."""
    state = new_game(variant, b"deal:%d" % deal)
    tried: Tried = set()
    rng = random.Random(deal)
    start = time.perf_counter()
    moves = 0
    worst = 0.0
    while moves < MAX_MOVES and outcome(state) == Outcome.PLAYING:
        board = BoardView.from_engine(view(state))
        chosen = time.perf_counter()
        move = choose(board, tried, strategy, rng)
        worst = max(worst, time.perf_counter() - chosen)
        if move is None:
            break
        tried.add((board, move.format()))
        state = apply(state, move)
        moves += 1
    won = outcome(state) == Outcome.WON
    return Played(progress(state), won, moves, time.perf_counter() - start, worst)


def report(variant: str, deals: range) -> None:
    total = find_variant(variant).total
    base: float | None = None
    for strategy in sorted(STRATEGIES, key=lambda name: name != "greedy"):
        games = [play_out(variant, deal, strategy) for deal in deals]
        home = sum(game.home for game in games) / len(games)
        wins = sum(game.won for game in games)
        moves = sum(game.moves for game in games)
        per_move = sum(game.seconds for game in games) / max(1, moves) * 1000
        worst = max(game.worst for game in games) * 1000
        base = home if strategy == "greedy" else base
        ratio = f"{home / base:.2f}x greedy" if base else "n/a"
        print(
            f"{variant:20} {strategy:8} home {home:6.1f}/{total} ({ratio}; ideal {total}: "
            f"{home / total:.2f}) wins {wins}/{len(games)} {per_move:.2f} ms/move "
            f"(worst {worst:.1f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=8, help="deals per game (default 8)")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--games", nargs="*", default=list(VARIANT_KEYS), choices=VARIANT_KEYS)
    args = parser.parse_args()
    for variant in args.games:
        report(variant, range(args.first, args.first + args.deals))


if __name__ == "__main__":
    main()
