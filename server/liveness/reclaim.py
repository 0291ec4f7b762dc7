"""Taking back what a room let go of this process's live sockets while it could not reach Redis.

Theory of operation. The other processes' sweep (`server.liveness.sweep`) takes a process whose
subscriptions Redis has dropped for dead and lets its players and spectators go. A
process that was only cut off from Redis (a network partition, or Redis closing its
pub/sub connection) still has their sockets open. So when its feed has subscribed to a
room again (the hub's ``on_rejoined``), and at each of its own sweeps while it listens
to the room (for a drop written just as it came back), it looks where the room has
each of its sockets' players and spectators (`presence.standing`):

- held here: nothing to do, and nothing is written;
- let go: taken back under the room's version guard (`presence.take_back`): a racer
  marked away comes back as on a resume (``player_back``, the host role as usual), a
  spectator is counted again;
- held elsewhere (they resumed on another process meanwhile): this socket is stale and
  is closed as a takeover is (4002);
- lost (a lobby seat freed, perhaps taken by someone else since; a seat given up at the
  rematch; a spectator the room has no place for now): the socket is closed with 4004.
  The client resumes, is refused, and in the lobby joins again like anyone coming
  back to a lobby they dropped out of.

The tokens' locks are held throughout, so a resume, a leave or a close of the same token
on this process comes wholly before or after.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging

from protocol import CloseCode
from server import room_store
from server.conn.session import Session
from server.lifecycle import presence
from server.lifecycle.presence import Standing
from server.lifecycle.room import Room, RoomError
from server.services import Services
from server.store import StoreUnavailable

_log = logging.getLogger(__name__)
LET_GO_TEXT = "the room let you go while this server could not reach it; resume"

__all__ = ["reclaim"]


async def reclaim(services: Services, code: str, room: Room | None = None) -> None:
    """Put the room right for this process's live sockets in it. Given the `room` as last
    read, nothing is read or written unless one of them is not held here."""
    process = services.store.process
    sockets = _sockets(services, code)
    if room is not None and all(
        presence.standing(room, process, seat, token) == "held" for seat, token in sockets.values()
    ):
        return
    try:
        async with contextlib.AsyncExitStack() as locks:
            for token in sorted({token for _, token in sockets.values()}):
                await locks.enter_async_context(services.token_lock(token))
            bound = {
                session: (seat, token)
                for session, (seat, token) in sockets.items()
                if session.place.code == code and session.place.token_hash == token
            }
            await _take_back(services, code, bound)
    except StoreUnavailable as error:
        _log.warning("taking back the live sockets of room %s failed: %s", code, error)
    except RoomError as error:
        _log.info("taking back the live sockets of room %s: %s", code, error.message)


async def _take_back(
    services: Services, code: str, sockets: dict[Session, tuple[int | None, str]]
) -> None:
    """Under the sockets' token locks: take back what was let go, then close the sockets
    whose player or spectator is held elsewhere or lost."""
    if not sockets:
        return
    process = services.store.process
    held = list(sockets.values())
    change = functools.partial(presence.take_back, process=process, sockets=held)
    saved = await room_store.update(services.store, code, change)
    await asyncio.gather(
        *(
            _settle(session, presence.standing(saved.room, process, seat, token))
            for session, (seat, token) in sockets.items()
        )
    )


async def _settle(session: Session, standing: Standing) -> None:
    if standing == "elsewhere":
        await session.dismiss(CloseCode.REPLACED, "resumed on another connection")
    elif standing != "held":
        await session.dismiss(CloseCode.LET_GO, LET_GO_TEXT)


def _sockets(services: Services, code: str) -> dict[Session, tuple[int | None, str]]:
    """This process's sessions in the room, with their seat (None: a spectator) and token."""
    return {
        member: (member.place.seat, member.place.token_hash)
        for member in services.hub.members.get(code, ())
        if isinstance(member, Session) and member.place.token_hash is not None
    }
