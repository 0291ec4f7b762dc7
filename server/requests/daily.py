"""Daily deals: race today's deal of a game as a challenge, read a day's standings.

A day's challenge is made the first time anyone asks for it, by whichever process;
every process makes the same record (`server.challenges.daily`), so storing it is
"set unless set". Only today's and past days' exist: a future day is not found, so
nothing of it is shown before it starts. The secret is read from the store and
used here only; no reply, log line or metric carries it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from protocol import DailyBoard, ErrorCode, GetDaily, JoinChallenge, Joined, RaceDaily
from server.challenges import daily
from server.challenges.records import pack
from server.conn.session import Session
from server.lifecycle.room import RoomError
from server.requests.challenge_rooms import Enter, join_challenge
from server.requests.challenges import RETENTION_MS, challenge_info
from server.services import Services

__all__ = ["get_daily", "race_daily", "streak_now"]


async def race_daily(
    session: Session, message: RaceDaily, *, enter: Enter, hash_token: Callable[[str], str]
) -> Joined:
    services = session.services
    today = daily.day_of(services.clock.now_ms())
    code = await _ensure(services, message.variant, today)
    joining = JoinChallenge(id=message.id, code=code, name=message.name)
    return await join_challenge(session, joining, enter=enter, hash_token=hash_token)


async def get_daily(session: Session, message: GetDaily) -> DailyBoard:
    services = session.services
    now = services.clock.now_ms()
    day = daily.day_of(now) if message.day is None else _parsed(message.day)
    if day > daily.day_of(now):
        raise RoomError(ErrorCode.CHALLENGE_NOT_FOUND, f"{day} has not started yet")
    code = await _ensure(services, message.variant, day)
    shown = await challenge_info(services, code)
    if shown is None:
        raise RoomError(ErrorCode.CHALLENGE_NOT_FOUND, f"no deal of {day} is kept any more")
    streak = await streak_now(services, session.account) if session.account else None
    return DailyBoard(id=message.id, day=day.isoformat(), challenge=shown, streak=streak)


async def streak_now(services: Services, account: str) -> int:
    """The account's daily streak as it stands today: 0 once a day has been missed."""
    stored = await services.store.daily_streak(account)
    if stored is None:
        return 0
    last, streak = dt.date.fromisoformat(stored[0]), stored[1]
    today = daily.day_of(services.clock.now_ms())
    return streak if today - last <= dt.timedelta(days=1) else 0


async def _ensure(services: Services, variant: str, day: dt.date) -> str:
    """The code of game `variant`'s challenge of `day`, stored if it was not yet."""
    secret = await services.store.daily_secret()
    challenge = daily.daily_challenge(secret, variant, day)
    keep_ms = challenge.closes_at_ms - services.clock.now_ms() + RETENTION_MS
    if keep_ms > 0:
        await services.store.ensure_challenge(challenge.code, pack(challenge), keep_ms)
    return challenge.code


def _parsed(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError as error:
        raise RoomError(ErrorCode.PROTO_INVALID, f"not a day: {text}") from error
