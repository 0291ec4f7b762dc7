"""Daily deals, pure: seeds per game and day, codes, UTC days and streaks."""

from __future__ import annotations

import datetime as dt

from server.challenges.daily import (
    daily_challenge,
    daily_code,
    day_of,
    day_start_ms,
    next_streak,
    parse_code,
    seed_of,
)
from server.challenges.records import DAY_MS

DAY = dt.date(2026, 3, 9)
SECRET = b"k" * 32


def test_a_seed_per_secret_game_and_day() -> None:
    seeds = {
        seed_of(SECRET, DAY, "little-forty"),
        seed_of(SECRET, DAY, "little-milligan"),
        seed_of(SECRET, DAY + dt.timedelta(days=1), "little-forty"),
        seed_of(b"j" * 32, DAY, "little-forty"),
    }
    assert len(seeds) == 4
    assert seed_of(SECRET, DAY, "little-forty") == seed_of(bytes(SECRET), DAY, "little-forty")


def test_a_day_runs_from_utc_midnight_to_the_next() -> None:
    start = day_start_ms(DAY)
    assert day_of(start) == DAY and day_of(start - 1) == DAY - dt.timedelta(days=1)
    assert day_of(start + DAY_MS - 1) == DAY and day_of(start + DAY_MS) != DAY
    challenge = daily_challenge(SECRET, "little-forty", DAY)
    assert (challenge.created_ms, challenge.closes_at_ms) == (start, start + DAY_MS)
    assert challenge.seed == seed_of(SECRET, DAY, "little-forty") and challenge.key_digest == ""


def test_codes_read_back() -> None:
    assert parse_code(daily_code("double-canfield-40", DAY)) == ("double-canfield-40", DAY)
    assert parse_code("ABCDEF") is None and parse_code("daily:x:2026-02-30") is None


def test_streaks_count_days_in_a_row() -> None:
    assert next_streak(None, 0, DAY) == 1
    assert next_streak(DAY, 4, DAY) == 4
    assert next_streak(DAY - dt.timedelta(days=1), 4, DAY) == 5
    assert next_streak(DAY - dt.timedelta(days=2), 4, DAY) == 1
