"""The server process: WebSocket endpoint, HTTP health and metrics, orderly shutdown.

`RaceServer` ties the parts together: the store (Redis), the hub (local
fan-out and room timers), the sessions (one per socket) and the metrics.
``/healthz`` and ``/metrics`` are answered on the WebSocket port before the
upgrade. `stop` stops accepting, tells every client to reconnect, lets moves
in flight finish their commits, then closes the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from http import HTTPStatus

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from protocol import CloseCode, GoingAway
from protocol.limits import MAX_CLIENT_FRAME
from server import play
from server._services import Services, now_ms
from server.config import Config
from server.hub import Hub
from server.metrics import CONTENT_TYPE, Metrics
from server.session import Session
from server.store import Store

_log = logging.getLogger(__name__)
MAX_WIRE_FRAME = 4 * MAX_CLIENT_FRAME
"""Frames up to this size get a ``proto/too-large`` reply; larger ones close the socket (1009)."""


class RaceServer:
    def __init__(self, config: Config, store: Store) -> None:
        self.config, self.store = config, store
        self.sessions: set[Session] = set()
        self.metrics = Metrics(
            connections=lambda: len(self.sessions),
            rooms=lambda: len(self.hub.members),
        )
        self.hub = Hub(store, self._deadline, now_ms)
        self.services = Services(store, self.hub, self.metrics, config)
        self.server: Server | None = None

    @property
    def port(self) -> int:
        assert self.server is not None
        port: int = next(iter(self.server.sockets)).getsockname()[1]
        return port

    async def start(self) -> None:
        self.server = await serve(
            self._connection,
            self.config.host,
            self.config.port,
            process_request=self._http,
            compression=None,
            max_size=MAX_WIRE_FRAME,
            max_queue=64,
            ping_interval=20,
            ping_timeout=20,
        )

    async def stop(self) -> None:
        """Stop accepting, send ``going_away``, finish commits in flight, close everything."""
        if self.server is None:
            return
        self.services.stopping = True
        self.server.close(close_connections=False)
        notice = GoingAway(reconnect_in_ms=500, message="server restarting; resume")
        for session in list(self.sessions):
            with contextlib.suppress(Exception):
                await session.send(notice)
        await asyncio.sleep(0)
        for session in list(self.sessions):
            await session.conn.close(CloseCode.GOING_AWAY, "server shutting down")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.server.wait_closed(), self.config.shutdown_grace_s)
        await self.hub.close()
        await self.store.close()

    async def _connection(self, conn: ServerConnection) -> None:
        session = Session(conn, self.services)
        self.sessions.add(session)
        try:
            await session.run()
        finally:
            self.sessions.discard(session)

    async def _deadline(self, code: str) -> None:
        await play.on_deadline(self.services, code)

    def _http(self, conn: ServerConnection, request: Request) -> Response | None:
        if request.path == "/healthz":
            return conn.respond(HTTPStatus.OK, "ok\n")
        if request.path == "/metrics":
            response = conn.respond(HTTPStatus.OK, self.metrics.render().decode())
            response.headers["Content-Type"] = CONTENT_TYPE
            return response
        if "upgrade" not in request.headers.get("Connection", "").lower():
            return conn.respond(HTTPStatus.NOT_FOUND, "solrace: connect with a WebSocket client\n")
        return None


__all__ = ["RaceServer"]
