"""The server process: WebSocket endpoint, HTTP health and metrics, orderly shutdown.

`RaceServer` ties the parts together: the store (Redis), the hub (local
fan-out and room timers), the deadline poller (due deadlines of any room), the
presence sweep (players and spectators of processes that died), the taking back of
its own sockets' players and spectators should the others have let them go while it
was cut off from Redis (`server.liveness.reclaim`), the sessions (one per socket) and the
metrics.
``/healthz`` (the process is alive), ``/readyz`` (it can serve: the store
answers), ``/metrics``, the web pages (`server.web.page`) and the JSON they read
(`server.web.api`, ``/api/...``) are answered on
the WebSocket port before the upgrade (a scrape reads the pool levels of
winnable deals from the store). `stop` stops accepting, and every
session at once stops reading, answers every request it has already read,
then sends ``going_away`` and closes with 1001; then the hub and the store
close. All of it takes at most ``shutdown_grace_s``: sockets still open then
are aborted. Use it as ``async with RaceServer(config, store) as server:``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from http import HTTPStatus
from types import TracebackType

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from engine import VARIANT_KEYS
from protocol.limits import MAX_CLIENT_FRAME
from server.clock import Clock, SystemClock
from server.config import Config
from server.conn.fairconn import FairConnection, abort, connection_class
from server.conn.session import Session
from server.fanout.hub import Hub
from server.house.supervisor import Command, House, bot_command
from server.lifecycle.room import Room
from server.limits.admission import AddressLimits
from server.limits.holding import Holding
from server.liveness import reclaim
from server.liveness.poller import DeadlinePoller
from server.liveness.sweep import PresenceSweep
from server.metrics import CONTENT_TYPE, Metrics
from server.race_flow import deadlines
from server.requests import accounts, house, lobby
from server.services import Services
from server.solver.pool import Analyst
from server.store import Store, StoreUnavailable
from server.web import api, page

_log = logging.getLogger(__name__)
MAX_WIRE_FRAME = 4 * MAX_CLIENT_FRAME
HOLD_STEP_S = 0.2
"""How often a held connection looks again whether its address may open it."""
STOPPING = "solrace: the server is shutting down; connect again in a moment\n"
"""Frames up to this size get a ``proto/too-large`` reply; larger ones close the socket (1009)."""


class RaceServer:
    def __init__(
        self,
        config: Config,
        store: Store,
        clock: Clock | None = None,
        bot_command: Command = bot_command,
    ) -> None:
        self.config, self.store = config, store
        self.clock = clock or SystemClock()
        self.sessions: set[Session] = set()
        self.metrics = Metrics(
            connections=lambda: len(self.sessions),
            rooms=lambda: len(self.hub.members),
        )
        self.hub = Hub(store, self._deadline, self.clock, self._reclaim)
        self.limits = AddressLimits(config, self.clock)
        self.holding = Holding(self.clock)
        self.services = Services(
            store,
            self.hub,
            self.metrics,
            config,
            self.limits,
            Analyst(config.analysis_workers, config.analysis_queue),
            self.clock,
        )
        if config.bot_workers:
            self.services.house = House(
                config.bot_workers,
                config.house_bots_per_worker,
                functools.partial(house.free_lost, self.services),
                bot_command,
            )
        self.records = api.Records(
            functools.partial(accounts.profile, self.services),
            functools.partial(accounts.history, self.services),
            functools.partial(accounts.leaderboard, self.services),
        )
        self.poller = DeadlinePoller(
            store,
            self.clock,
            self._deadline,
            poll_s=config.deadline_poll_s,
            lease_s=config.deadline_lease_s,
        )
        self.sweep = PresenceSweep(
            store,
            self.hub,
            self.clock,
            config.presence_sweep_s,
            self._reclaim,
            house=self.services.house,
        )
        self.server: Server | None = None
        self.bot_listener: Server | None = None
        """Where the house's bot processes connect: loopback, a port of its own, so
        they always reach this process, whatever shares the public port."""
        self.stopped: asyncio.Future[None] | None = None
        """The shutdown, once `stop` has begun it."""

    async def __aenter__(self) -> RaceServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        assert self.server is not None
        port: int = next(iter(self.server.sockets)).getsockname()[1]
        return port

    async def start(self) -> None:
        self.server = await self._listen(self.config.host, self.config.port, self.config.reuse_port)
        house = self.services.house
        if house is not None:
            self.bot_listener = await self._listen("127.0.0.1", 0, reuse_port=False)
            house.start(next(iter(self.bot_listener.sockets)).getsockname()[1])
        self.poller.start()
        self.sweep.start()

    async def _listen(self, host: str, port: int, reuse_port: bool) -> Server:
        return await serve(
            self._connection,
            host,
            port,
            process_request=self._http,
            compression=None,
            max_size=MAX_WIRE_FRAME,
            max_queue=64,
            ping_interval=20,
            ping_timeout=20,
            reuse_port=reuse_port,
            create_connection=connection_class(self.config.frames_per_turn, self.limits),
        )

    async def stop(self) -> None:
        """Stop accepting, send ``going_away``, finish commits in flight, close everything.

        Takes at most about ``shutdown_grace_s``. Safe to call again or
        concurrently: every call returns once the one shutdown has finished.
        """
        if self.server is None:
            return
        if self.stopped is None:
            self.stopped = asyncio.ensure_future(self._stop(self.server))
        await asyncio.shield(self.stopped)

    async def _stop(self, server: Server) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.shutdown_grace_s
        self.services.stopping = True
        self.holding.close()
        await self.poller.close()
        await self.sweep.close()
        if self.services.house is not None:
            await self.services.house.close(max(0.0, deadline - loop.time()) / 2)
        if self.bot_listener is not None:
            self.bot_listener.close(close_connections=False)
        server.close(close_connections=False)
        for session in self.sessions:
            session.drain()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(server.wait_closed(), max(0.0, deadline - loop.time()))
        if self.sessions:
            _log.warning("%d sockets did not close in time; aborting them", len(self.sessions))
            for session in self.sessions:
                abort(session.conn)
        await self.hub.close(max(0.0, deadline - loop.time()))
        await self._cancel_background()
        self.services.analyst.close()
        await self.store.close()

    async def _cancel_background(self) -> None:
        """Background work (verdicts) is dropped on shutdown; a restart does not redo it."""
        left = [*self.services.background]
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)

    async def _connection(self, conn: ServerConnection) -> None:
        assert isinstance(conn, FairConnection) and conn.client_address is not None
        session = Session(conn, self.services, lobby, conn.client_address)
        self.sessions.add(session)
        if self.services.stopping:
            session.drain()
        try:
            await session.run()
        finally:
            self.sessions.discard(session)

    async def _deadline(self, code: str) -> None:
        await deadlines.on_deadline(self.services, code)

    async def _reclaim(self, code: str, room: Room | None = None) -> None:
        await reclaim.reclaim(self.services, code, room)

    async def _http(self, conn: ServerConnection, request: Request) -> Response | None:
        if request.path == "/healthz":
            return conn.respond(HTTPStatus.OK, "ok\n")
        if request.path == "/readyz":
            return await self._readiness(conn)
        if request.path == "/metrics":
            await self._count_winnable()
            response = conn.respond(HTTPStatus.OK, self.metrics.render().decode())
            response.headers["Content-Type"] = CONTENT_TYPE
            return response
        if "upgrade" not in request.headers.get("Connection", "").lower():
            known = request.headers.get("If-None-Match")
            if request.path.startswith(api.PREFIX):
                return await self._api(conn, request, known)
            return page.respond(request.path, known)
        return await self._admit(conn, request)

    async def _api(self, conn: ServerConnection, request: Request, known: str | None) -> Response:
        """The records pages' JSON. Each answer reads the store, so each spends one of
        the address's new connections (it is one: the answer closes it), as an upgrade does."""
        peer = conn.remote_address[0] if conn.remote_address else ""
        address = self.limits.client_address(peer, request.headers.get_all("X-Forwarded-For"))
        wait = self.limits.arrivals.take(address, self.clock.monotonic())
        if wait is not None:
            self.metrics.refused.inc()
            return api.too_many(wait)
        return await api.respond(self.records, request.path, known)

    async def _admit(self, conn: ServerConnection, request: Request) -> Response | None:
        """Count the connection against its client address's limits, or refuse it (429).

        A connection over its address's limits is held unanswered first, up to
        ``hold_s``, and opens as soon as the address may open it: a client that
        retries at once is slowed to the rate it may connect at, at the cost of
        a sleeping task, instead of costing an answer at every try. An address
        holds at most ``max_held_per_address`` such connections; past them, and
        after the hold, the answer is 429."""
        assert isinstance(conn, FairConnection)
        peer = conn.remote_address[0] if conn.remote_address else ""
        address = self.limits.client_address(peer, request.headers.get_all("X-Forwarded-For"))
        refused = conn.admit(address)
        if refused is not None and self.limits.hold(address):
            try:
                until = self.clock.monotonic() + self.config.hold_s
                while refused is not None and (left := until - self.clock.monotonic()) > 0:
                    if not await self.holding.pause(min(HOLD_STEP_S, left)):
                        return _retry(conn.respond(HTTPStatus.SERVICE_UNAVAILABLE, STOPPING))
                    refused = conn.admit(address)
            finally:
                self.limits.unhold(address)
        if refused is None:
            return None
        self.metrics.refused.inc()
        return _retry(conn.respond(HTTPStatus.TOO_MANY_REQUESTS, f"solrace: {refused}\n"))

    async def _count_winnable(self) -> None:
        """Read the pool levels for this scrape; a store that cannot answer within
        ``ready_timeout_s`` leaves the levels last read."""
        with contextlib.suppress(StoreUnavailable, TimeoutError):
            async with asyncio.timeout(self.config.ready_timeout_s):
                self.metrics.set_winnable(await self.store.winnable_counts(VARIANT_KEYS))

    async def _readiness(self, conn: ServerConnection) -> Response:
        """200 when the store answers within ``ready_timeout_s``, else 503."""
        try:
            async with asyncio.timeout(self.config.ready_timeout_s):
                await self.store.ping()
        except (StoreUnavailable, TimeoutError):
            return conn.respond(HTTPStatus.SERVICE_UNAVAILABLE, "not ready: store unavailable\n")
        return conn.respond(HTTPStatus.OK, "ready\n")


def _retry(response: Response) -> Response:
    """A refusal that asks the client to try again in a second."""
    response.headers["Retry-After"] = "1"
    return response


__all__ = ["RaceServer"]
