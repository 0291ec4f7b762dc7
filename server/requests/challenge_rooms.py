"""Racing a challenge: `join_challenge` opens a room with its deal and its ghosts.

The room is an ordinary room (friends join it by its code and start together,
spectators watch it) whose game, deal and settings are the challenge's and stay
so, never rated and never a practice room with hints (docs/challenges.md says
why); its ghosts are the challenge's best runs (`Config.challenge_ghosts`),
played by the server from the room's deadlines (`server.lifecycle.ghosts`).
Entering the room is the lobby's (`server.requests.lobby` hands it in), so a
challenge room is joined, resumed and left like any other.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace

from protocol import ErrorCode, JoinChallenge, Joined, limits
from protocol.limits import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH
from server.challenges.ghosts import ghosts_for, ghosts_named
from server.challenges.records import Run, unpack_challenge, unpack_run
from server.challenges.standings import is_closed
from server.config import Config
from server.conn.session import Session
from server.lifecycle import room as rooms
from server.lifecycle.room import Room, RoomError
from server.lifecycle.state import Ghost
from server.requests import seating

__all__ = ["Enter", "join_challenge"]

Enter = Callable[..., Awaitable[Joined]]
"""The lobby's way into a room: ``enter(session, request_id, room, seat, seq, token=)``."""


async def join_challenge(
    session: Session, message: JoinChallenge, *, enter: Enter, hash_token: Callable[[str], str]
) -> Joined:
    services = session.services
    store, config = services.store, services.config
    if session.place.code is not None:
        text = f"already in room {session.place.code}; leave first"
        raise RoomError(ErrorCode.ROOM_ALREADY_MEMBER, text)
    seating.count_join_attempt(session)
    record = await store.load_challenge(message.code)
    if record is None:
        raise RoomError(ErrorCode.CHALLENGE_NOT_FOUND, f"no challenge {message.code}")
    challenge = unpack_challenge(record.body)
    if is_closed(challenge, record.closed_ms, services.clock.now_ms()):
        raise RoomError(ErrorCode.CHALLENGE_CLOSED, f"challenge {message.code} has closed")
    who = await seating.sitter(session, message.name, False)
    token = secrets.token_urlsafe(18)
    holder = {
        "process": store.process,
        "token": hash_token(token),
        **who.seat(challenge.variant, config.provisional_races),
    }
    settings = challenge.settings.model_copy(update={"rated": False, "practice": False})
    ghosts = _ghosts([unpack_run(run) for _, run in record.runs], message.ghosts, config)
    for _ in range(16):
        code = "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))
        made = rooms.create(code, challenge.variant, settings, who.name, challenge.seed, **holder)
        room: Room = replace(made.room, challenge=challenge.code, ghosts=ghosts)
        if await store.create_room(code, rooms.to_bytes(room)):
            break
    else:
        raise RoomError(ErrorCode.SERVER_BUSY, "could not find a free room code; try again")
    await store.expire_room(code, config.idle_room_ttl_s)
    return await enter(session, message.id, room, 0, 0, token=token)


def _ghosts(runs: list[Run], names: tuple[str, ...], config: Config) -> tuple[Ghost, ...]:
    """The runs named, or the challenge's best ones (`Config.challenge_ghosts`)."""
    if not names:
        return ghosts_for(runs, min(config.challenge_ghosts, limits.MAX_GHOSTS))
    chosen = ghosts_named(runs, names)
    if isinstance(chosen, str):
        raise RoomError(ErrorCode.CHALLENGE_NO_RUN, f"{chosen} has no run in this challenge")
    return chosen
