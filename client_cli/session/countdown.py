"""Counting the last seconds before a race starts, by the server's clock."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


async def count_down(
    start_at_ms: int,
    server_now_ms: Callable[[], int],
    write: Callable[[str], None],
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """Write ``Starting in 2 seconds.`` and so on as each whole second before
    ``start_at_ms`` begins.

    The first number is left to the countdown announcement, the start to
    ``race_started``; waits are recomputed from the clock, so none drifts.
    """
    seconds = (start_at_ms - server_now_ms() + 999) // 1000
    for left in range(seconds - 1, 0, -1):
        await sleep(max(0, start_at_ms - left * 1000 - server_now_ms()) / 1000)
        write(f"Starting in {left} second{'s' if left > 1 else ''}.")
