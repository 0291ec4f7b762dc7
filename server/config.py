"""Server settings, from the command line and the environment."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from protocol.limits import RATE_BURST, RATE_PER_S


@dataclass(frozen=True, slots=True)
class Config:
    host: str = "127.0.0.1"
    port: int = 8765
    redis_url: str | None = None
    """None: start an embedded Valkey with its data in `data_dir`."""
    data_dir: Path = Path("data")
    key_prefix: str = "solrace:"
    finished_room_ttl_s: int = 3600
    """How long a room is kept after its race ends (rematch, results)."""
    idle_room_ttl_s: int = 86400
    """How long a room with no race finished is kept after its last change."""
    rate_per_s: float = RATE_PER_S
    """Steady messages a second allowed per connection."""
    rate_burst: float = RATE_BURST
    max_rate_strikes: int = 50
    """Messages refused for rate before the connection is closed."""
    shutdown_grace_s: float = 5.0
    """How long a shutdown may take: requests already read are answered, then every
    socket gets ``going_away`` and 1001; sockets still open then are aborted."""
    send_buffer_limit_bytes: int = 1024 * 1024
    """Unsent bytes a connection may have queued; over it, it is closed with 4003."""
    ready_timeout_s: float = 1.0
    """How long ``/readyz`` waits for the store to answer before it says not ready."""
    deadline_poll_s: float = 1.0
    """How often each process claims the room deadlines due (any room, anyone connected)."""
    deadline_lease_s: float = 10.0
    """How long a claimed deadline is held before another process may claim it again."""
    workers: int = 1
    """Server processes sharing the port; more than one needs a fixed port."""
    reuse_port: bool = False
    """Listen with SO_REUSEPORT, so several processes share one port."""


_DEFAULTS = Config()


def parse_args(argv: list[str] | None = None) -> Config:
    parser = argparse.ArgumentParser(
        prog="solrace-server", description="Run a solrace race server."
    )
    parser.add_argument("--host", default=_DEFAULTS.host, help="address to listen on")
    parser.add_argument("--port", type=int, default=_DEFAULTS.port, help="port (0: any free port)")
    parser.add_argument(
        "--redis",
        default=os.environ.get("SOLRACE_REDIS_URL"),
        help="Redis/Valkey URL (default: $SOLRACE_REDIS_URL, else an embedded Valkey)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=Path(os.environ.get("SOLRACE_DATA_DIR", "data")),
        help="where the embedded Valkey keeps its data (default: ./data)",
    )
    parser.add_argument("--prefix", default=_DEFAULTS.key_prefix, help="Redis key prefix")
    parser.add_argument(
        "--room-ttl",
        type=int,
        default=_DEFAULTS.finished_room_ttl_s,
        help="seconds a room is kept after its race ends",
    )
    parser.add_argument(
        "--deadline-poll",
        type=float,
        default=_DEFAULTS.deadline_poll_s,
        help="seconds between claims of due room deadlines (default: 1)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.environ.get("SOLRACE_WORKERS", "1"),
        help="server processes on one port, sharing one Redis (default: $SOLRACE_WORKERS, else 1)",
    )
    parser.add_argument(
        "--reuse-port",
        action="store_true",
        help="share the port with other processes (SO_REUSEPORT)",
    )
    args = parser.parse_args(argv)
    if args.deadline_poll <= 0:
        parser.error("--deadline-poll must be more than 0")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.workers > 1 and args.port == 0:
        parser.error("--workers needs a fixed --port (port 0 would give each worker its own)")
    return Config(
        host=args.host,
        port=args.port,
        redis_url=args.redis,
        data_dir=args.data_dir,
        key_prefix=args.prefix,
        finished_room_ttl_s=args.room_ttl,
        deadline_poll_s=args.deadline_poll,
        workers=args.workers,
        reuse_port=args.reuse_port or args.workers > 1,
    )
