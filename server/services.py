"""What every request handler needs: the store, the hub, metrics, settings, the clock."""

from __future__ import annotations

import asyncio
import secrets
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from server.clock import Clock, SystemClock
from server.config import Config
from server.fanout.hub import Hub
from server.house import House
from server.limits.admission import AddressLimits
from server.metrics import Metrics
from server.solver.hint_lines import HintLines
from server.solver.pool import Analyst
from server.store import Store

SECRET_BYTES = 32


def new_secret() -> bytes:
    """The secret of a new deal: random bytes nobody sees before the race is over."""
    return secrets.token_bytes(SECRET_BYTES)


class TokenHolder(Protocol):
    """A session bound to a player token (`server.conn.session.Session`)."""

    async def replaced(self) -> None:
        """The token was resumed on another socket: let go of it and close."""


@dataclass
class Services:
    store: Store
    hub: Hub
    metrics: Metrics
    config: Config
    limits: AddressLimits
    """Limits per client address: connections, new connections, join attempts."""
    analyst: Analyst = field(default_factory=lambda: Analyst(0, 0))
    """Solver jobs in worker processes (verdicts, hints, dead-end checks)."""
    clock: Clock = field(default_factory=SystemClock)
    """Every timer, deadline and stamp of the server reads this clock."""
    new_secret: Callable[[], bytes] = new_secret
    """Where the secrets of new deals come from (a test pins its deal here)."""
    by_token: dict[str, TokenHolder] = field(default_factory=dict)
    """Sessions of this process by token hash (a resumed token replaces its old socket)."""
    hint_lines: HintLines = field(default_factory=HintLines)
    """The last winning line found for each seat (`server.requests.hints`)."""
    background: set[asyncio.Task[None]] = field(default_factory=set)
    """Work started after a reply and awaited by nobody (post-race verdicts);
    cancelled on shutdown."""
    house: House | None = None
    """The house bots' processes (`server.house`); None when the server runs none."""
    stopping: bool = False
    """Shutting down: a closing socket is a server restart, not a player leaving."""
    token_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(
        default_factory=weakref.WeakValueDictionary
    )

    def token_lock(self, token_hash: str) -> asyncio.Lock:
        """One lock per player token in this process: resume and disconnect take turns."""
        lock = self.token_locks.get(token_hash)
        if lock is None:
            lock = self.token_locks[token_hash] = asyncio.Lock()
        return lock
