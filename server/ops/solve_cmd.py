"""``solrace-server solve``: the solver's verdict on a range of public deals.

Public deal number ``N`` is the race seed ``b"deal:N"`` (see `server.lifecycle.room.Room.seed`).
Deals are solved in worker processes when ``--jobs`` is above one; each gets
the same budget of CPU seconds, checked by the solver through a clock this shell reads.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine import VARIANT_KEYS, new_game
from engine.solver import Budget, solve

VERDICTS = ("won", "unwinnable", "undecided")


@dataclass(frozen=True, slots=True)
class DealResult:
    deal: int
    verdict: str
    moves: tuple[str, ...]
    seconds: float

    def as_json(self) -> str:
        return json.dumps(
            {
                "deal": self.deal,
                "verdict": self.verdict,
                "moves": list(self.moves),
                "seconds": round(self.seconds, 3),
            }
        )


def public_seed(deal: int) -> bytes:
    """The race seed of public deal number ``deal``."""
    return b"deal:%d" % deal


def solve_deal(game: str, deal: int, budget_s: float) -> DealResult:
    """Solve one public deal within ``budget_s`` CPU seconds of this process (a deal
    waiting for a core does not lose its budget, so shares hold on a busy machine)."""
    start = time.process_time()
    end = start + budget_s
    verdict = solve(
        new_game(game, public_seed(deal)), Budget(expired=lambda: time.process_time() > end)
    )
    return DealResult(deal, verdict.result, verdict.moves, time.process_time() - start)


def solve_deals(
    game: str, deals: Sequence[int], budget_s: float, jobs: int
) -> Iterator[DealResult]:
    """Results in deal order, solved ``jobs`` at a time."""
    if jobs <= 1:
        for deal in deals:
            yield solve_deal(game, deal, budget_s)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(solve_deal, [game] * len(deals), deals, [budget_s] * len(deals))


def parse_range(text: str) -> range:
    """``"A..B"`` (both included) or a single number."""
    first, dots, last = text.partition("..")
    try:
        low, high = int(first), int(last) if dots else int(first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected deal numbers as A..B, got {text!r}") from None
    if low < 0 or high < low:
        raise argparse.ArgumentTypeError(f"expected 0 <= A <= B in A..B, got {text!r}")
    return range(low, high + 1)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="solrace-server solve", description="Solve public deals: won, unwinnable or undecided."
    )
    parser.add_argument("--game", required=True, choices=VARIANT_KEYS, help="variant key")
    parser.add_argument("--seeds", required=True, type=parse_range, help="public deals A..B")
    parser.add_argument(
        "--budget", type=float, default=10.0, help="CPU seconds per deal (default 10)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="deals solved at once (processes)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line per deal")
    args = parser.parse_args(argv)
    if args.budget <= 0 or args.jobs < 1:
        parser.error("--budget must be above 0 and --jobs at least 1")
    return args


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    counts: Counter[str] = Counter()
    if not args.json:
        print(f"{'deal':>8}  {'verdict':<11}{'moves':>6}{'seconds':>9}", flush=True)
    for result in solve_deals(args.game, list(args.seeds), args.budget, args.jobs):
        counts[result.verdict] += 1
        if args.json:
            print(result.as_json(), flush=True)
        else:
            line = f"{result.deal:>8}  {result.verdict:<11}{len(result.moves):>6}"
            print(f"{line}{result.seconds:>9.2f}", flush=True)
    if not args.json:
        print(summary(counts))
    return 0


def summary(counts: Counter[str]) -> str:
    total = sum(counts.values())
    shares = (
        f"{verdict} {counts[verdict]} ({100 * counts[verdict] / total:.1f}%)"
        for verdict in VERDICTS
    )
    return f"{total} deals: " + ", ".join(shares)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
