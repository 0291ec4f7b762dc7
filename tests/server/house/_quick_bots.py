"""``python -m tests.server.house._quick_bots --server URL``: the house bot process
as the server starts it, but with no pauses between its bots' moves, so that a
server test races house bots to the end without waiting on a person's pace."""

from __future__ import annotations

import asyncio
import sys

from bots.house.__main__ import parse_args, stdin_lines, write_line
from bots.house.process import HouseProcess


async def no_pause(seconds: float) -> None:
    await asyncio.sleep(0)


async def serve(url: str) -> None:
    await HouseProcess(url, write_line, sleep=no_pause).run(stdin_lines())


if __name__ == "__main__":
    asyncio.run(serve(parse_args().server))
    sys.exit(0)
