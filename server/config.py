"""Server settings, from the command line and the environment."""

from __future__ import annotations

import argparse
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

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
    # Abuse limits. A client's address is the socket peer's, or, when the peer is
    # one of `trusted_proxies`, the address that proxy gives in X-Forwarded-For.
    max_connections_per_address: int = 32
    """WebSocket connections one client address may have open at once (HTTP 429 beyond)."""
    new_connections_per_s: float = 5.0
    """New WebSocket connections one client address may open a second, on average."""
    new_connections_burst: int = 32
    """New connections one client address may open at once before the average applies."""
    hold_s: float = 5.0
    """How long a connection over its address's limits waits unanswered for them to
    allow it before it is refused (429)."""
    max_held_per_address: int = 64
    """Connections of one client address that may wait so at once (429 at once beyond)."""
    joins_per_minute: float = 60.0
    """``join_room`` attempts (as player or spectator) one client address may make a minute."""
    joins_burst: int = 30
    """Join attempts one client address may make at once before the average applies."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (CIDR) of proxies whose X-Forwarded-For header names the client."""
    frames_per_turn: int = 4
    """Frames of one connection parsed per event-loop turn; the rest wait for the next turn."""
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
    presence_sweep_s: float = 10.0
    """How often each process looks for players and spectators held by processes that
    died (`server.liveness.sweep`)."""
    workers: int = 1
    """Server processes sharing the port; more than one needs a fixed port."""
    reuse_port: bool = False
    """Listen with SO_REUSEPORT, so several processes share one port."""
    # Solver work, run in worker processes (`server.solver.pool`), never on the event loop.
    analysis_workers: int = 1
    """Processes that run the solver for verdicts, hints and dead-end checks; 0: none
    (no verdicts or dead-end notices, and hints answer ``server/busy``)."""
    analysis_queue: int = 16
    """Solver jobs waiting for a worker at most; beyond, a hint gets ``server/busy``
    and other jobs are skipped."""
    verdict_budget_s: float = 10.0
    """CPU seconds the solver spends on a raced deal's verdict."""
    hint_budget_s: float = 2.0
    """CPU seconds the solver spends looking for a hint."""
    dead_end_after_s: float = 30.0
    """A racer with no card home for this long gets a dead-end check."""
    dead_end_budget_s: float = 2.0
    """CPU seconds a dead-end check may take; undecided means nothing is said."""
    # Ratings (docs/accounts.md).
    provisional_races: int = 5
    """A rating is shown as provisional until the account has this many rated races of the game."""
    leaderboard_min_races: int = 5
    """Rated races of a game an account needs to appear on that game's leaderboard."""
    challenge_ghosts: int = 3
    """The best runs of a challenge a challenger races against as ghosts (docs/challenges.md)."""
    # House bots (docs/bots.md).
    bot_workers: int = 0
    """Bot processes this server process starts for house bots; 0: none (the command
    line's default is 1)."""
    house_bots_per_room: int = 4
    """House bots one room may have."""
    house_bots_per_worker: int = 10
    """House bots one bot process plays at most (more only when it takes over the
    bots of a process that died)."""


_DEFAULTS = Config()


def parse_args(argv: list[str] | None = None) -> Config:
    parser = argparse.ArgumentParser(
        prog="solrace-server", description="Run a solrace race server."
    )
    parser.add_argument("--host", default=_DEFAULTS.host, help="address to listen on")
    parser.add_argument("--port", type=int, default=_DEFAULTS.port, help="port (0: any free port)")
    add_store_args(parser)
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
        "--presence-sweep",
        type=float,
        default=_DEFAULTS.presence_sweep_s,
        help="seconds between checks for those held by processes that died (default: 10)",
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
    _add_flags(
        parser.add_argument_group("solver work (verdicts, hints, dead ends)"), _ANALYSIS_FLAGS
    )
    _add_flags(parser.add_argument_group("ratings"), _RATING_FLAGS)
    _add_house_args(parser.add_argument_group("house bots (docs/bots.md)"))
    _add_limit_args(parser)
    args = parser.parse_args(argv)
    if args.deadline_poll <= 0:
        parser.error("--deadline-poll must be more than 0")
    if args.presence_sweep <= 0:
        parser.error("--presence-sweep must be more than 0")
    _check_flags(parser, args)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.bot_workers < 0:
        parser.error("--bot-workers must be at least 0")
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
        presence_sweep_s=args.presence_sweep,
        workers=args.workers,
        reuse_port=args.reuse_port or args.workers > 1,
        trusted_proxies=tuple(args.trusted_proxy),
        bot_workers=args.bot_workers,
        **{flag.field: getattr(args, flag.field) for flag in _NUMBER_FLAGS},
    )


class Flag(NamedTuple):
    """A number setting on the command line: its flag, type, `Config` field and help,
    and the value it must be above."""

    flag: str
    kind: type[int] | type[float]
    field: str
    text: str
    above: float = 0

    def check(self, parser: argparse.ArgumentParser, value: float) -> None:
        if value <= self.above:
            least = (
                f"at least {int(self.above) + 1}" if self.kind is int else f"above {self.above:g}"
            )
            parser.error(f"{self.flag} must be {least}")


_ANALYSIS_FLAGS = (
    Flag(
        "--analysis-workers",
        int,
        "analysis_workers",
        "solver processes; 0: no verdicts, hints or dead-end checks",
        above=-1,
    ),
    Flag("--analysis-queue", int, "analysis_queue", "solver jobs that may wait for a worker", -1),
    Flag("--verdict-budget", float, "verdict_budget_s", "CPU seconds for a raced deal's verdict"),
    Flag("--hint-budget", float, "hint_budget_s", "CPU seconds to look for a hint"),
    Flag(
        "--dead-end-after",
        float,
        "dead_end_after_s",
        "seconds with no card home before a racer's position is checked for a dead end",
    ),
    Flag("--dead-end-budget", float, "dead_end_budget_s", "CPU seconds for a dead-end check"),
)
_RATING_FLAGS = (
    Flag(
        "--provisional-races",
        int,
        "provisional_races",
        "rated races of a game before a rating stops being provisional",
        above=-1,
    ),
    Flag(
        "--leaderboard-min-races",
        int,
        "leaderboard_min_races",
        "rated races of a game before an account is on its leaderboard",
        above=-1,
    ),
    Flag("--challenge-ghosts", int, "challenge_ghosts", "ghosts in a challenge race", above=-1),
)
_LIMIT_FLAGS = (
    Flag(
        "--max-connections",
        int,
        "max_connections_per_address",
        "connections one address may have open at once",
    ),
    Flag(
        "--connection-rate",
        float,
        "new_connections_per_s",
        "new connections an address may open a second",
    ),
    Flag(
        "--connection-burst",
        int,
        "new_connections_burst",
        "new connections an address may open at once",
    ),
    Flag(
        "--hold",
        float,
        "hold_s",
        "seconds a connection over its address's limits waits unanswered before a 429",
    ),
    Flag(
        "--max-held",
        int,
        "max_held_per_address",
        "connections of one address that may wait so at once",
        above=-1,
    ),
    Flag("--join-rate", float, "joins_per_minute", "join attempts an address may make a minute"),
    Flag("--join-burst", int, "joins_burst", "join attempts an address may make at once"),
    Flag("--request-rate", float, "rate_per_s", "requests one connection may send a second"),
    Flag("--request-burst", float, "rate_burst", "requests one connection may send at once"),
    Flag(
        "--frames-per-turn",
        int,
        "frames_per_turn",
        "frames of one connection parsed per event-loop turn",
    ),
)

_HOUSE_FLAGS = (
    Flag("--house-bots-per-room", int, "house_bots_per_room", "house bots one room may have"),
    Flag(
        "--house-bots-per-worker",
        int,
        "house_bots_per_worker",
        "house bots one bot process plays",
    ),
)

_NUMBER_FLAGS = _ANALYSIS_FLAGS + _RATING_FLAGS + _HOUSE_FLAGS + _LIMIT_FLAGS


class _Options(Protocol):
    """A parser or one of its argument groups: what `_add_flags` adds to."""

    def add_argument(self, *names: str, **options: Any) -> argparse.Action: ...


def _add_flags(group: _Options, flags: tuple[Flag, ...]) -> None:
    for flag in flags:
        group.add_argument(
            flag.flag,
            type=flag.kind,
            dest=flag.field,
            metavar="N" if flag.kind is int else "X",
            default=getattr(_DEFAULTS, flag.field),
            help=f"{flag.text} (default: %(default)s)",
        )


def _check_flags(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    for flag in _NUMBER_FLAGS:
        flag.check(parser, getattr(args, flag.field))
    for proxy in args.trusted_proxy:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            parser.error(f"--trusted-proxy {proxy!r} is not an address or a network")


def add_store_args(parser: argparse.ArgumentParser) -> None:
    """Where the store is: ``--redis``, ``--data-dir``, ``--prefix``; shared by the
    server and its commands, so a command finds the same store as the server."""
    parser.add_argument(
        "--redis",
        default=os.environ.get("SOLRACE_REDIS_URL"),
        help="Redis/Valkey URL, or redis+cluster://HOST:PORT (any node) for a Redis Cluster "
        "(default: $SOLRACE_REDIS_URL, else an embedded Valkey)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=Path(os.environ.get("SOLRACE_DATA_DIR", "data")),
        help="where the embedded Valkey keeps its data (default: ./data)",
    )
    parser.add_argument("--prefix", default=_DEFAULTS.key_prefix, help="Redis key prefix")


def _add_house_args(group: _Options) -> None:
    group.add_argument(
        "--bot-workers",
        type=int,
        default=1,
        metavar="N",
        help="bot processes that play house bots; 0: no house bots (default: %(default)s)",
    )
    _add_flags(group, _HOUSE_FLAGS)


def _add_limit_args(parser: argparse.ArgumentParser) -> None:
    limits = parser.add_argument_group("limits per client address and per connection")
    _add_flags(limits, _LIMIT_FLAGS)
    limits.add_argument(
        "--trusted-proxy",
        action="append",
        default=_env_list("SOLRACE_TRUSTED_PROXIES"),
        metavar="ADDRESS_OR_NETWORK",
        help="a proxy whose X-Forwarded-For names the client; repeat for more "
        "(default: $SOLRACE_TRUSTED_PROXIES, comma-separated, else none)",
    )


def _env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]
