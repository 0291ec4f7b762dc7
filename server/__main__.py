"""``solrace-server``: run a race server, with an embedded Valkey unless ``--redis`` is given;
``solrace-server solve ...`` solves public deals instead (see `server.ops.solve_cmd`), and
``fill-pool ...`` and ``pool`` fill and show the pool of winnable deals (`server.ops.pool_cmd`)."""

from __future__ import annotations

import asyncio
import logging
import sys
from contextlib import AsyncExitStack

from server import memory
from server.app import RaceServer
from server.config import Config, parse_args
from server.ops import pool_cmd, solve_cmd
from server.ops.embedded import DataDirInUse, EmbeddedValkey
from server.ops.workers import STOP_SIGNALS, run_workers, stop_with_parent
from server.store import Store

_log = logging.getLogger("solrace")


async def serve(config: Config) -> None:
    async with AsyncExitStack() as stack:
        url = config.redis_url
        if url is None:
            valkey = await stack.enter_async_context(EmbeddedValkey(config.data_dir))
            url = valkey.url
            where = f"embedded Valkey, data in {config.data_dir.resolve()}"
        else:
            where = f"Redis at {url}"
        store = await Store.connect(url, config.key_prefix)
        server = await stack.enter_async_context(RaceServer(config, store))
        memory.freeze_startup()
        _announce(config, server.port, where)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in STOP_SIGNALS:
            loop.add_signal_handler(signum, stop.set)
        stop_with_parent(stop.set)
        await stop.wait()
        _log.info("shutting down")


def _announce(config: Config, port: int, where: str) -> None:
    host = "127.0.0.1" if config.host in ("0.0.0.0", "::", "") else config.host
    url = f"ws://{host}:{port}"
    print(f"solrace server listening on {url} ({where})", flush=True)
    print("Join a race from another terminal:", flush=True)
    print(f"  .venv/bin/solrace --server {url} create little-forty --name YOU", flush=True)
    print(f"  .venv/bin/solrace --server {url} join CODE --name FRIEND", flush=True)
    print("Health: /healthz  Ready: /readyz  Metrics: /metrics  Stop: Ctrl-C", flush=True)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    try:
        sys.exit(_command(args))
    except DataDirInUse as error:
        print(f"solrace-server: {error}", file=sys.stderr)
        sys.exit(1)


def _command(args: list[str]) -> int:
    if args[:1] == ["solve"]:
        return solve_cmd.main(args[1:])
    if args[:1] in (["fill-pool"], ["pool"]):
        return pool_cmd.main(args[0], args[1:])
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("websockets").setLevel(logging.WARNING)
    config = parse_args(args)
    if config.workers > 1:
        return asyncio.run(run_workers(config, args))
    try:
        import uvloop  # noqa: PLC0415 (optional: the fast loop where it is installed)
    except ImportError:
        asyncio.run(serve(config))
    else:
        uvloop.run(serve(config))
    return 0


if __name__ == "__main__":
    main()
