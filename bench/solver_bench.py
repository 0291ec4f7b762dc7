"""Solver figures per variant: shares of deals won, proven unwinnable and
undecided at a time budget, the search speed beside the engine's, and the
solving process's peak memory.

The speed figure is positions expanded per second; its ideal-path yardstick
is the engine's validated `apply` calls per second on the same deals, so the
ratio says how many engine moves one search step costs.

Run: python -m bench.solver_bench [--deals N] [--budget S] [--first D] [--games G ...]
[--option O] (the 200-deal, 10-second measurement: --deals 200 --budget 10 --jobs 2;
``--option unlimited-redeals --games little-billie`` for that rule option)
"""

from __future__ import annotations

import argparse
import resource
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine import OPTION_KEYS, VARIANT_KEYS, GameState, apply, legal_moves, new_game
from engine.solver import Budget, solve

VERDICTS = ("won", "unwinnable", "undecided")
TARGETS = {
    "little-milligan": 99,
    "little-billie": 99,
    "little-forty": 98,
    "double-canfield-40": 95,
}
"""Per cent of public deals 1-200 to decide within 10 CPU seconds each."""


@dataclass(frozen=True, slots=True)
class Solved:
    verdict: str
    nodes: int
    seconds: float
    peak_mb: float
    """The solving process's peak resident memory so far (its largest search)."""


def deal_seed(deal: int) -> bytes:
    """The race seed of public deal number ``deal`` (as the server makes it)."""
    return b"deal:%d" % deal


def solve_one(variant: str, deal: int, budget_s: float, option: str = "") -> Solved:
    """Solve within ``budget_s`` seconds of this process's CPU time, so other
    load on the machine does not shrink the budget."""
    start = time.process_time()
    end = start + budget_s
    verdict = solve(
        new_game(variant, deal_seed(deal), option),
        Budget(expired=lambda: time.process_time() > end),
    )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return Solved(verdict.result, verdict.nodes, time.process_time() - start, peak_mb)


def applies_per_second(states: list[GameState], seconds: float = 0.5) -> float:
    """Engine `apply` calls per CPU second on the first moves of the deals."""
    pairs = [(state, move) for state in states for move in legal_moves(state)]
    done, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for state, move in pairs:
            apply(state, move)
        done += len(pairs)
    return done / (time.process_time() - start)


def measure(
    variant: str, deals: range, budget_s: float, jobs: int, each: bool, *, option: str = ""
) -> str:
    results: list[Solved] = []
    count = len(deals)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        solved = pool.map(solve_one, [variant] * count, deals, [budget_s] * count, [option] * count)
        for deal, result in zip(deals, solved, strict=True):
            results.append(result)
            if each:
                print(f"  deal {deal}: {result.verdict}, {result.seconds:.2f} s", flush=True)
    counts = Counter(result.verdict for result in results)
    share = {verdict: 100 * counts[verdict] / len(results) for verdict in VERDICTS}
    nodes_rate = sum(r.nodes for r in results) / sum(r.seconds for r in results)
    apply_rate = applies_per_second([new_game(variant, deal_seed(deal)) for deal in deals[:20]])
    mean_s = sum(r.seconds for r in results) / len(results)
    peak_mb = max(r.peak_mb for r in results)
    open_deals = [deal for deal, r in zip(deals, results, strict=True) if r.verdict == "undecided"]
    return (
        f"{variant:<20}{share['won']:>7.1f}%{share['unwinnable']:>11.1f}%"
        f"{share['undecided']:>11.1f}%{100 - share['undecided']:>9.1f}%{mean_s:>8.2f}"
        f"{nodes_rate:>10,.0f}{apply_rate:>10,.0f}{nodes_rate / apply_rate:>7.2f}"
        f"{peak_mb:>9.0f}"
        + (f"\n{'':<20}undecided: {', '.join(map(str, open_deals))}" if open_deals else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10, help="public deals per variant")
    parser.add_argument("--first", type=int, default=1, help="first public deal number")
    parser.add_argument("--budget", type=float, default=1.0, help="CPU seconds per deal")
    parser.add_argument("--jobs", type=int, default=1, help="deals solved at once")
    parser.add_argument("--games", nargs="+", default=list(VARIANT_KEYS), choices=VARIANT_KEYS)
    parser.add_argument("--each", action="store_true", help="print each deal's verdict too")
    parser.add_argument("--option", default="", choices=OPTION_KEYS, help="a rule option")
    args = parser.parse_args()
    deals = range(args.first, args.first + args.deals)
    print(
        f"solver, {args.deals} deals per variant from deal {args.first}, {args.budget:g} CPU s each"
        + (f", rule option {args.option}" if args.option else "")
    )
    print(
        "targets at 10 s: "
        + ", ".join(f"{variant} {share}%" for variant, share in TARGETS.items())
        + " decided"
    )
    print(
        f"{'variant':<20}{'won':>8}{'unwinnable':>12}{'undecided':>12}{'decided':>10}"
        f"{'mean s':>8}{'nodes/s':>10}{'apply/s':>10}{'ratio':>7}{'peak MB':>9}"
    )
    for variant in args.games:
        line = measure(variant, deals, args.budget, args.jobs, args.each, option=args.option)
        print(line, flush=True)


if __name__ == "__main__":
    main()
