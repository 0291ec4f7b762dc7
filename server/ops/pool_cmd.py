"""``solrace-server fill-pool`` and ``solrace-server pool``: the host's pool of winnable deals.

Winnable-only rooms deal from a pool of secret seeds the solver has proven
winnable, one set per game in the server's Redis (`server.store`, `server.requests.deals`).
``fill-pool`` makes fresh random secrets just as a room does, solves each deal
from its first position within a budget of CPU seconds (``--jobs`` at a time,
in worker processes), and adds only the ones the solver won, until it has
added ``--count``, or until the pool holds ``--up-to`` (or it has tried
``--max-deals``). ``pool`` prints how many seeds each game's pool holds. Both
reach the server's store as the server does: ``--redis URL``, else the
embedded Valkey in ``--data-dir`` (the one a running server started, else one
started for the command). No seed is ever printed: a known seed would let a
player recognise its deal and know the stock.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

from engine import VARIANT_KEYS, new_game
from engine.solver import Budget, solve
from server.config import add_store_args
from server.ops.embedded import EmbeddedValkey, running_url
from server.services import new_secret
from server.store import Store

Report = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Solved:
    secret: bytes
    verdict: str
    seconds: float
    """CPU seconds the solve took."""


def solve_secret(game: str, secret: bytes, budget_s: float) -> Solved:
    """Solve the deal of ``secret`` within ``budget_s`` CPU seconds of this thread."""
    start = time.thread_time()
    end = start + budget_s
    verdict = solve(new_game(game, secret), Budget(expired=lambda: time.thread_time() > end))
    return Solved(secret, verdict.result, time.thread_time() - start)


@dataclass
class Filling:
    """A `fill` run: its aims and what it has done so far."""

    count: int
    """Seeds to add."""
    max_deals: int
    """Deals to try at most."""
    tried: int = 0
    added: int = 0

    def may_try(self, in_flight: int) -> bool:
        """Whether to start one more deal beside ``in_flight`` ones."""
        return self.added < self.count and self.tried + in_flight < self.max_deals

    def line(self, solved: Solved) -> str:
        return (
            f"deal {self.tried:>5}: {solved.verdict:<10} {solved.seconds:6.2f} s"
            f"   added {self.added}/{self.count}"
        )


async def fill(
    store: Store,
    game: str,
    filling: Filling,
    *,
    budget_s: float,
    jobs: int = 1,
    secrets: Callable[[], bytes] = new_secret,
    report: Report = print,
) -> None:
    """Solve deals of ``game`` from ``secrets``, ``jobs`` at a time, and put each won
    one into its pool as it is found, until ``filling`` has its count or its tries."""
    loop = asyncio.get_running_loop()
    running: set[asyncio.Future[Solved]] = set()
    with _executor(jobs) as pool:
        try:
            while filling.added < filling.count:
                while len(running) < jobs and filling.may_try(len(running)):
                    running.add(loop.run_in_executor(pool, solve_secret, game, secrets(), budget_s))
                if not running:
                    return
                done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    await _keep(store, game, filling, future.result())
                    report(filling.line(future.result()))
        finally:
            for future in running:
                future.cancel()


async def _keep(store: Store, game: str, filling: Filling, solved: Solved) -> None:
    """Count a solved deal, and add it to the pool if it is a win still wanted."""
    filling.tried += 1
    if solved.verdict == "won" and filling.added < filling.count:
        filling.added += await store.add_winnable(game, [solved.secret])


def _executor(jobs: int) -> Executor:
    """One solving thread for one job (the event loop stays free), else processes."""
    if jobs == 1:
        return ThreadPoolExecutor(1)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["engine", "engine.solver"])
    return ProcessPoolExecutor(jobs, mp_context=context, initializer=_leave_interrupts)


def _leave_interrupts() -> None:
    """Ctrl-C is for the parent, which stops starting deals and waits for these."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@asynccontextmanager
async def open_store(args: argparse.Namespace) -> AsyncIterator[Store]:
    """The server's store: ``--redis``, or the embedded Valkey in ``--data-dir``."""
    async with AsyncExitStack() as stack:
        url = args.redis or running_url(args.data_dir)
        if url is None:
            url = (await stack.enter_async_context(EmbeddedValkey(args.data_dir))).url
        store = await Store.connect(url, args.prefix)
        yield await stack.enter_async_context(store)


async def fill_pool(args: argparse.Namespace, secrets: Callable[[], bytes]) -> int:
    async with open_store(args) as store:
        count = args.count
        if count is None:
            count = max(0, args.up_to - await _level(store, args.game))
        filling = Filling(count, args.max_deals or 20 * count)
        await fill(store, args.game, filling, budget_s=args.budget, jobs=args.jobs, secrets=secrets)
        level = await _level(store, args.game)
    print(f"added {filling.added} of {filling.tried} deals tried; {args.game} pool: {level}")
    return 0 if filling.added == filling.count else 1


async def _level(store: Store, game: str) -> int:
    return (await store.winnable_counts([game]))[game]


async def show_pool(args: argparse.Namespace) -> int:
    async with open_store(args) as store:
        counts = await store.winnable_counts(VARIANT_KEYS)
    print(f"{'game':<20}{'winnable deals':>15}")
    for game, count in counts.items():
        print(f"{game:<20}{count:>15}")
    return 0


def parse_args(command: str, argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"solrace-server {command}", description=_ABOUT[command])
    add_store_args(parser)
    if command == "fill-pool":
        _add_fill_args(parser)
    args = parser.parse_args(argv)
    if command == "fill-pool":
        aim = args.count if args.count is not None else args.up_to
        if args.budget <= 0 or min(args.jobs, aim) < 1:
            parser.error("--budget must be above 0, --jobs and --count or --up-to at least 1")
    return args


_ABOUT = {
    "fill-pool": "Add deals the solver proves winnable to the pool winnable-only rooms draw from.",
    "pool": "Print how many winnable deals each game's pool holds.",
}


def _add_fill_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, choices=VARIANT_KEYS, help="variant key")
    aim = parser.add_mutually_exclusive_group(required=True)
    aim.add_argument("--count", type=int, help="winnable deals to add")
    aim.add_argument("--up-to", type=int, metavar="N", help="add until the pool holds N deals")
    parser.add_argument(
        "--budget", type=float, default=10.0, help="CPU seconds per deal (default 10)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="deals solved at once (processes)")
    parser.add_argument(
        "--max-deals",
        type=int,
        help="stop after trying this many deals (default: 20 per deal to add)",
    )


def main(command: str, argv: Sequence[str], secrets: Callable[[], bytes] = new_secret) -> int:
    """Run ``fill-pool`` or ``pool``; ``secrets`` makes the deals to try (a test pins them)."""
    args = parse_args(command, argv)
    if command == "pool":
        return asyncio.run(show_pool(args))
    try:
        return asyncio.run(fill_pool(args, secrets))
    except KeyboardInterrupt:
        print("stopped; the deals added so far stay in the pool", file=sys.stderr)
        return 130
