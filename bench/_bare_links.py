"""The least a protocol client holds per seat, for the house bench's ideal path:
``python -m bench._bare_links --server URL --count N`` opens N connections,
says ``hello`` on each, prints ``ready`` and holds them until its input ends."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bots.house.link import open_once


async def hold(url: str, count: int) -> None:
    links = [await open_once(url) for _ in range(count)]
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.read)
    for link in links:
        await link.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--count", type=int, required=True)
    args = parser.parse_args()
    asyncio.run(hold(args.server, args.count))


if __name__ == "__main__":
    main()
