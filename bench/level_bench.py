"""Bot levels per game: wins and mean cards home over public deals, beside
the solver's verdict for the same deals.

Each level plays through the engine on what a player sees
(`bots.selfplay`). The reference is the good level (the careful
strategy), so the ratio says how far a level gets against it; the strong
level's share of the deals the solver won is given too (issue 28's target:
70 % in Little Milligan and Little Forty), and its CPU per move (mean and
slowest), which a bot's event loop waits for. Expert is left out: it plays
the server's hints, which need a server; without one it plays as strong.

Run: python -m bench.level_bench [--deals N] [--first D] [--games G ...]
[--levels L ...]; the default of 3 deals a game keeps `make bench` short
(a strong Double Canfield 40 game takes about a minute of CPU).
"""

from __future__ import annotations

import argparse

from bots.levels import LEVELS, Level
from bots.selfplay import Played, play_deal
from engine import VARIANT_KEYS, find_variant, new_game
from engine.solver import Budget, solve

SOLVER_NODES = 200_000
"""The solver's budget per deal for the verdict beside the levels."""
REFERENCE: Level = "good"


def report(variant: str, deals: range, levels: list[Level]) -> None:
    total = find_variant(variant).total
    verdicts = [
        solve(new_game(variant, b"deal:%d" % deal), Budget(nodes=SOLVER_NODES)) for deal in deals
    ]
    solved = [verdict.result == "won" for verdict in verdicts]
    print(
        f"{variant:20} solver   wins {sum(solved)}/{len(deals)} ({SOLVER_NODES:,} positions a deal)"
    )
    base: float | None = None
    for level in sorted(levels, key=lambda name: name != REFERENCE):
        games = [play_deal(variant, deal, level, deal) for deal in deals]
        home = sum(game.home for game in games) / len(games)
        base = home if level == REFERENCE else base
        ratio = f"{home / base:.2f}x {REFERENCE}" if base else "n/a"
        print(
            f"{variant:20} {level:8} home {home:6.1f}/{total} ({ratio}) wins "
            f"{sum(game.won for game in games)}/{len(games)}{_share(games, solved)}{_cpu(games)}"
        )


def _share(games: list[Played], solved: list[bool]) -> str:
    won = sum(game.won for game, winnable in zip(games, solved, strict=True) if winnable)
    return f", {won}/{sum(solved)} of the solver's" if any(solved) else ""


def _cpu(games: list[Played]) -> str:
    moves = sum(game.moves for game in games)
    per_move = sum(game.seconds for game in games) / max(1, moves) * 1000
    worst = max(game.worst for game in games) * 1000
    return f"; {per_move:.1f} ms CPU/move (worst {worst:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=3, help="deals per game (default 3)")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--games", nargs="*", default=list(VARIANT_KEYS), choices=VARIANT_KEYS)
    playing = [level for level in LEVELS if level != "expert"]
    parser.add_argument("--levels", nargs="*", default=playing, choices=playing)
    args = parser.parse_args()
    for variant in args.games:
        report(variant, range(args.first, args.first + args.deals), args.levels)


if __name__ == "__main__":
    main()
