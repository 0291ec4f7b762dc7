"""Challenge requests: turn a finished race into a challenge, read one, close one.

A racer of a finished room asks for its race's challenge (`create_challenge`): the
race's runs, each racer's move log with the server's stamps from its ``race_over``,
are stored with the deal under a new code. A race has one challenge: whoever asks
second gets the first one's, without its key. The key (shown once, kept only as its
sha256) lets the creator close it early; otherwise it closes after the days chosen.
Until then nobody is shown its seed or a run's moves (docs/challenges.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import (
    ChallengeCreated,
    ChallengeInfo,
    ChallengeReply,
    CloseChallenge,
    CreateChallenge,
    ErrorCode,
    GetChallenge,
)
from protocol.limits import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH
from server import room_store
from server.challenges import standings
from server.challenges.records import (
    DAY_MS,
    Challenge,
    pack,
    runs_of,
    split,
    unpack_challenge,
    unpack_run,
    with_log,
)
from server.conn.session import Session
from server.lifecycle import race as races
from server.lifecycle.rating import has_account
from server.lifecycle.room import RoomError
from server.requests.entry import token_hash
from server.services import Services

__all__ = ["HANDLERS", "RETENTION_DAYS", "challenge_info"]

RETENTION_DAYS = 90
"""How long a closed challenge and its runs are kept (docs/challenges.md)."""
RETENTION_MS = RETENTION_DAYS * DAY_MS


async def create_challenge(session: Session, message: CreateChallenge) -> ChallengeCreated:
    services = session.services
    store, now = services.store, services.clock.now_ms()
    code = await _raced_room(session, message)
    room, _, _ = await room_store.load(store, code)
    stats = await room_store.load_stats(store, code, room, logs=True)
    over = races.results(room, stats)
    if over is None:
        raise RoomError(ErrorCode.CHALLENGE_NOT_RACED, "the room's race is not over yet")
    earlier = await store.race_challenge(code, room.race_no)
    if earlier is not None:
        return ChallengeCreated(id=message.id, challenge=await _info(services, earlier))
    key = secrets.token_urlsafe(24)
    challenge = Challenge(
        code=_new_code(),
        variant=room.variant,
        settings=room.settings,
        seed=room.seed,
        room=code,
        race_no=room.race_no,
        created_ms=now,
        closes_at_ms=now + message.days * DAY_MS,
        key_digest=_digest(key),
        raced_by=(*(p.account for p in room.players if has_account(p)), *room.watched_by),
    )
    made_runs = runs_of(over, room.players, room.variant, room.seed)
    runs = {f"0-{place:03d}": split(run) for place, run in enumerate(made_runs, start=1)}
    keep_ms = challenge.closes_at_ms - now + RETENTION_MS
    made = await store.create_challenge(
        challenge.code, pack(challenge), runs, room=code, race_no=room.race_no, keep_ms=keep_ms
    )
    shown = await _info(services, made)
    return ChallengeCreated(
        id=message.id, challenge=shown, key=key if made == challenge.code else None
    )


async def _raced_room(session: Session, message: CreateChallenge) -> str:
    """The room the caller raced in: its seat's, or the one whose seat `message.token` holds."""
    code, seat = session.place.code, session.place.seat
    if code is not None and seat is not None:
        return code
    if message.room is not None and message.token is not None:
        with contextlib.suppress(RoomError):
            room, _, _ = await room_store.load(session.services.store, message.room)
            if any(player.token == token_hash(message.token) for player in room.players):
                return message.room
    raise RoomError(ErrorCode.CHALLENGE_NOT_RACED, "race in a room first, then challenge")


async def get_challenge(session: Session, message: GetChallenge) -> ChallengeReply:
    finished = await _has_finished(session, message.code)
    shown = await _info(session.services, message.code, show_moves=finished)
    return ChallengeReply(id=message.id, challenge=shown)


async def _has_finished(session: Session, code: str) -> bool:
    """Whether the connection raced challenge `code` in its room and its race is over:
    then it may see the runs' moves (the seed stays secret until the room's race ends
    and ``race_over`` shows it)."""
    room_code, seat = session.place.code, session.place.seat
    if room_code is None or seat is None:
        return False
    try:
        room, _, _ = await room_store.load(session.services.store, room_code)
        return room.challenge == code and room.player(seat).outcome != "playing"
    except RoomError:
        return False


async def close_challenge(session: Session, message: CloseChallenge) -> ChallengeReply:
    services = session.services
    record = await services.store.load_challenge(message.code)
    if record is None:
        raise _not_found(message.code)
    challenge = unpack_challenge(record.body)
    if not hmac.compare_digest(challenge.key_digest, _digest(message.key)):
        raise RoomError(ErrorCode.CHALLENGE_BAD_KEY, "that key does not close this challenge")
    now = services.clock.now_ms()
    if not standings.is_closed(challenge, record.closed_ms, now):
        await services.store.close_challenge(message.code, now, RETENTION_MS)
    return ChallengeReply(id=message.id, challenge=await _info(services, message.code))


async def challenge_info(
    services: Services, code: str, *, show_moves: bool = False
) -> ChallengeInfo | None:
    """The challenge as anyone may see it now (None: no such challenge); `show_moves`
    shows the runs' moves of an open challenge too."""
    record = await services.store.load_challenge(code)
    if record is None:
        return None
    challenge = unpack_challenge(record.body)
    runs = {run_id: unpack_run(run) for run_id, run in record.runs}
    now = services.clock.now_ms()
    if show_moves or standings.is_closed(challenge, record.closed_ms, now):
        shown = {id(run) for run in standings.best(runs.values())}
        logs = await services.store.run_logs(code, [i for i, r in runs.items() if id(r) in shown])
        runs = {run_id: with_log(run, logs.get(run_id)) for run_id, run in runs.items()}
    return standings.info(
        challenge, list(runs.values()), record.closed_ms, now, show_moves=show_moves
    )


async def _info(services: Services, code: str, *, show_moves: bool = False) -> ChallengeInfo:
    found = await challenge_info(services, code, show_moves=show_moves)
    if found is None:
        raise _not_found(code)
    return found


def _not_found(code: str) -> RoomError:
    return RoomError(ErrorCode.CHALLENGE_NOT_FOUND, f"no challenge {code}")


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _new_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


HANDLERS: dict[type[Any], Callable[[Session, Any], Awaitable[Any]]] = {
    CreateChallenge: create_challenge,
    GetChallenge: get_challenge,
    CloseChallenge: close_challenge,
}
"""The challenge requests, merged into `server.requests.lobby.HANDLERS`."""
