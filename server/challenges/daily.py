"""Daily deals, pure: the day's seed from the server secret, the day's challenge, streaks.

Theory of operation. Each game has one deal a UTC day: its seed is
HMAC-SHA256(server secret, "<date>|<game>|<deal algorithm version>"), so every
process with the secret (kept once in Redis) computes the same seed, a new day or
game gives another, and nobody without the secret can tell a future day's deal.
The day's deal is a challenge (code ``daily:<game>:<date>``) that opens when the day
starts (its seed commitment is shown from then on) and closes when it ends, when its
seed is shown; nobody can close it early.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re

from engine import DEAL_ALGO_VERSION
from protocol.models import Settings
from server.challenges.records import DAY_MS, Challenge

__all__ = [
    "DAILY_SETTINGS",
    "daily_challenge",
    "daily_code",
    "day_of",
    "day_start_ms",
    "next_streak",
    "parse_code",
    "seed_of",
]

DAILY_SETTINGS = Settings()
"""A daily race's settings: the defaults (a secret deal, not rated, not practice)."""
_CODE = re.compile(r"^daily:([a-z0-9-]+):(\d{4}-\d{2}-\d{2})$")


def seed_of(secret: bytes, day: dt.date, variant: str) -> bytes:
    """The seed of game `variant`'s deal of `day`."""
    message = f"{day.isoformat()}|{variant}|{DEAL_ALGO_VERSION}".encode()
    return hmac.new(secret, message, hashlib.sha256).digest()


def day_of(now_ms: int) -> dt.date:
    """The UTC day `now_ms` falls on."""
    return dt.datetime.fromtimestamp(now_ms / 1000, dt.UTC).date()


def day_start_ms(day: dt.date) -> int:
    start = dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)
    return int(start.timestamp()) * 1000


def daily_code(variant: str, day: dt.date) -> str:
    return f"daily:{variant}:{day.isoformat()}"


def parse_code(code: str) -> tuple[str, dt.date] | None:
    """The game and day of a daily challenge's code; None for any other code."""
    found = _CODE.match(code)
    if found is None:
        return None
    try:
        return found.group(1), dt.date.fromisoformat(found.group(2))
    except ValueError:
        return None


def daily_challenge(secret: bytes, variant: str, day: dt.date) -> Challenge:
    """Game `variant`'s challenge of `day`: the same record in every process."""
    start = day_start_ms(day)
    return Challenge(
        code=daily_code(variant, day),
        variant=variant,
        settings=DAILY_SETTINGS,
        seed=seed_of(secret, day, variant),
        room="",
        race_no=0,
        created_ms=start,
        closes_at_ms=start + DAY_MS,
        key_digest="",
    )


def next_streak(last_day: dt.date | None, streak: int, day: dt.date) -> int:
    """The streak after a ranked daily run on `day`: one more than the day before's,
    the same on the same day, else a new streak of 1."""
    if last_day == day:
        return streak
    if last_day is not None and last_day + dt.timedelta(days=1) == day:
        return streak + 1
    return 1
