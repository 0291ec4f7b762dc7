"""Dead-end checks per variant: how many positions where a player has run out
of progress the search decides within the server's budget, and how fast.

The positions are where a player is likely to sit with no card going home:
the last position of the greedy player (`bench.greedy`) when it neither won
nor got stuck, and positions after random play that have no move home now.
Figures: the share answered "can", "cannot" and "undecided" at the budget
(the ideal is nothing undecided), the mean and worst CPU time of a check
beside the budget, and positions expanded per second beside the engine's
`apply` calls per second (one position costs one `legal_moves` and an
`apply` per move, so the ratio says how many applies a position costs).

Run: python -m bench.dead_end_bench [--deals N] [--budget S] [--games G ...]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Iterator

from bench.greedy import play
from bench.solver_bench import applies_per_second, deal_seed
from engine import VARIANT_KEYS, GameState, Outcome, apply, legal_moves, new_game, outcome
from engine.solver import Budget
from engine.solver.dead_end import Reach, reach_home

ANSWERS = ("can", "cannot", "undecided")


def positions(variant: str, deals: int) -> Iterator[GameState]:
    """Per deal, greedy's last position if still playing, and one after random play
    with no move home (when the walk finds one)."""
    rng = random.Random(f"dead end bench {variant}")
    for deal in range(1, deals + 1):
        end = play(variant, deal_seed(deal)).state
        if outcome(end) == Outcome.PLAYING:
            yield end
        walked = _random_walk(new_game(variant, deal_seed(deal)), rng, rng.randrange(20, 200))
        if walked is not None:
            yield walked


def _random_walk(state: GameState, rng: random.Random, steps: int) -> GameState | None:
    for _ in range(steps):
        moves = legal_moves(state)
        if not moves:
            return None
        home = [move for move in moves if move.dst == "f"]
        state = apply(state, rng.choice(home or moves))
    homeless = not any(move.dst == "f" for move in legal_moves(state))
    return state if homeless and outcome(state) == Outcome.PLAYING else None


def check(state: GameState, budget_s: float) -> tuple[Reach, float]:
    start = time.process_time()
    reach = reach_home(state, Budget(expired=lambda: time.process_time() - start >= budget_s))
    return reach, time.process_time() - start


def measure(variant: str, deals: int, budget_s: float) -> str:
    checks = [check(state, budget_s) for state in positions(variant, deals)]
    if not checks:
        return f"{variant:<20} no position without a way home found"
    counts: Counter[str] = Counter(reach.answer for reach, _ in checks)
    share = {answer: 100 * counts[answer] / len(checks) for answer in ANSWERS}
    seconds = [spent for _, spent in checks]
    rate = sum(reach.nodes for reach, _ in checks) / max(sum(seconds), 1e-9)
    apply_rate = applies_per_second([new_game(variant, deal_seed(d)) for d in range(1, 21)])
    return (
        f"{variant:<20}{len(checks):>5}{share['can']:>7.1f}%{share['cannot']:>8.1f}%"
        f"{share['undecided']:>10.1f}%{sum(seconds) / len(seconds):>8.3f}{max(seconds):>8.3f}"
        f"{rate:>10,.0f}{apply_rate:>10,.0f}{apply_rate / rate:>7.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30, help="public deals per variant")
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds per check")
    parser.add_argument("--games", nargs="+", default=list(VARIANT_KEYS), choices=VARIANT_KEYS)
    args = parser.parse_args()
    print(f"dead-end checks, {args.deals} deals per variant, {args.budget:g} CPU s budget each")
    print("ideal: 0% undecided; worst check within the budget")
    print(
        f"{'variant':<20}{'n':>5}{'can':>8}{'cannot':>9}{'undecided':>11}"
        f"{'mean s':>8}{'max s':>8}{'pos/s':>10}{'apply/s':>10}{'ratio':>7}"
    )
    for variant in args.games:
        print(measure(variant, args.deals, args.budget), flush=True)


if __name__ == "__main__":
    main()
