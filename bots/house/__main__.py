"""``python -m bots.house --server ws://127.0.0.1:PORT``: the bot process the server
starts, commands on standard input, answers on standard output, logs on standard error."""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import sys
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor

from bots.house.decide import Decider
from bots.house.process import HouseProcess


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bots.house", description=__doc__)
    parser.add_argument("--server", required=True, help="the server's URL, ws://HOST:PORT")
    parser.add_argument(
        "--search-processes",
        type=int,
        default=0,
        metavar="N",
        help="worker processes for the strong and expert bots' searches (default 0: threads)",
    )
    options = parser.parse_args(argv)
    if options.search_processes < 0:
        parser.error("--search-processes is 0 or more")
    return options


async def stdin_lines() -> AsyncIterator[str]:
    """Standard input, one line at a time, until it ends."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        yield line.decode("utf-8", errors="replace")


def write_line(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def serve(url: str, search_processes: int) -> None:
    if not search_processes:
        await HouseProcess(url, write_line).run(stdin_lines())
        return
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(search_processes, mp_context=context) as pool:
        await HouseProcess(url, write_line, decide=Decider(pool)).run(stdin_lines())


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="bots.house %(levelname)s %(message)s"
    )
    asyncio.run(serve(options.server, options.search_processes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
