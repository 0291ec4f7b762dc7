"""Requests sent and not answered yet, by request id.

Every request gets exactly one reply echoing its id, so a reply completes the
future of its request. After a reconnect the unanswered requests are sent
again under new ids, each still completing its first future.
"""

from __future__ import annotations

import asyncio
import itertools

from protocol import ClientMessage, DeadEnd, Error, EventFrame, GoingAway, Resume, ServerMessage

Reply = asyncio.Future[ServerMessage]


class Pending:
    def __init__(self) -> None:
        self.ids = itertools.count(1)
        self.waiting: dict[int, tuple[ClientMessage, Reply]] = {}

    def next_id(self) -> int:
        return next(self.ids)

    def add(self, request: ClientMessage, reply: Reply | None = None) -> Reply:
        """Wait for the reply to ``request`` (on ``reply`` if given)."""
        if reply is None:
            reply = asyncio.get_running_loop().create_future()
        self.waiting[request.id] = (request, reply)
        return reply

    def answered(self, message: ServerMessage) -> tuple[ClientMessage | None, Reply | None]:
        """The request ``message`` answers, no longer waiting. An error without an
        id (rate limit) answers the oldest one: the server handles requests in order."""
        if isinstance(message, EventFrame | GoingAway | DeadEnd):
            return None, None
        if message.id is None:
            if isinstance(message, Error) and self.waiting:
                return self.waiting.pop(min(self.waiting))
            return None, None
        return self.waiting.pop(message.id, (None, None))

    def renew(self, resume: Resume) -> list[ClientMessage]:
        """On a new connection: ``resume`` first, then every unanswered request
        under a new id. A resume already waiting hands its future to ``resume``."""
        old, self.waiting = self.waiting, {}
        earlier = [reply for request, reply in old.values() if isinstance(request, Resume)]
        self.add(resume, earlier[0] if earlier else None)
        again: list[ClientMessage] = [resume]
        for request, reply in old.values():
            if not isinstance(request, Resume):
                copy = request.model_copy(update={"id": self.next_id()})
                self.add(copy, reply)
                again.append(copy)
        return again
