"""Snapshots of an account, a history page, a profile and leaderboards as printed."""

from __future__ import annotations

from datetime import UTC

from client_cli.words.records import (
    account_error,
    account_text,
    history_text,
    leaderboard_text,
    profile_text,
    table,
)
from protocol import (
    AccountInfo,
    BestTime,
    Error,
    ErrorCode,
    GameRating,
    HistoryEntry,
    LeaderboardReply,
    LeaderboardRow,
    Profile,
)
from tests.client_cli._snapshots import assert_snapshot

DAY_MS = 1_764_633_600_000
"""2025-12-02 00:00 UTC."""
RATINGS = (
    GameRating(
        variant="little-forty", rating=1523, provisional=False, races=12, mu=30.1, sigma=3.2
    ),
    GameRating(variant="little-billie", rating=1480, provisional=True, races=3, mu=24.0, sigma=6.0),
)
RACES = (
    HistoryEntry(
        at_ms=DAY_MS + 3_600_000, variant="little-forty", code="K7PQ2M", race_no=2,
        deal_number=None, rated=True, practice=False, place=1, racers=3, outcome="won",
        progress=104, elapsed_ms=83_456, moves=230, rating_before=1509, rating_after=1523,
    ),
    HistoryEntry(
        at_ms=DAY_MS + 60_000, variant="little-billie", code="ABC234", race_no=1,
        deal_number=42, rated=False, practice=True, place=2, racers=2, outcome="stuck",
        progress=31, elapsed_ms=301_002, moves=88,
    ),
    HistoryEntry(
        at_ms=DAY_MS, variant="little-forty", code="ZZZ999", race_no=1, deal_number=7,
        rated=False, practice=False, place=1, racers=1, outcome="resigned", progress=9,
        elapsed_ms=4_000, moves=1,
    ),
)  # fmt: skip


def test_an_account_with_its_ratings() -> None:
    account = AccountInfo(name="Ada", created_ms=DAY_MS, ratings=RATINGS)
    assert_snapshot("account_show", account_text(account, "ws://127.0.0.1:8765", UTC))
    bare = account_text(AccountInfo(name="Bob", created_ms=DAY_MS), "ws://h:1", UTC)
    assert bare.splitlines()[1:] == ["Ratings:", "  No rated race yet."]


def test_a_history_page_says_how_to_ask_for_the_next() -> None:
    text = history_text("Ada Lovelace", RACES, page=1, more=True, zone=UTC)
    assert text.splitlines()[-1] == "Older races: solrace history 'Ada Lovelace' --page 2"
    assert_snapshot("history_page", text)
    last = history_text("Ada", RACES[2:], page=2, more=False, zone=UTC)
    assert last.splitlines()[0] == "Ada's races, newest first, page 2:"
    assert history_text("Ada", (), page=1, more=False, zone=UTC) == (
        "Ada's races, newest first:\n  No race yet."
    )


def test_a_profile_shows_ratings_best_times_and_recent_races() -> None:
    best = (BestTime(variant="little-forty", deal_number=7, elapsed_ms=62_345, at_ms=DAY_MS),)
    profile = Profile(name="Ada", created_ms=DAY_MS, ratings=RATINGS, recent=RACES, best=best)
    assert_snapshot("profile", profile_text(profile, UTC))
    empty = profile_text(Profile(name="Bob", created_ms=DAY_MS), UTC)
    assert "  No public deal won yet." in empty and "  No race yet." in empty


def test_a_rating_board_and_a_deal_board() -> None:
    rows = (
        LeaderboardRow(place=1, name="Ada", rating=1623, races=40),
        LeaderboardRow(place=2, name="Bartholomew", rating=1502, races=5, provisional=True),
    )
    board = LeaderboardReply(id=1, variant="little-forty", rows=rows, total=2, min_races=5)
    assert_snapshot("leaderboard_rating", leaderboard_text(board, UTC))
    fastest = (
        LeaderboardRow(place=11, name="Bob", elapsed_ms=61_002, at_ms=DAY_MS),
        LeaderboardRow(place=12, name="Ada", elapsed_ms=62_345, at_ms=DAY_MS + 60_000),
    )
    deal = LeaderboardReply(id=1, variant="little-forty", deal_number=7, rows=fastest, total=12)
    assert_snapshot("leaderboard_deal", leaderboard_text(deal, UTC))


def test_empty_boards_say_what_it_takes() -> None:
    board = LeaderboardReply(id=1, variant="little-billie", rows=(), total=0, min_races=5)
    assert leaderboard_text(board, UTC).splitlines() == [
        "Little Billie: accounts by rating (5 or more rated races), 0 of 0",
        "  Nobody is on this board yet: it takes 5 or more rated races of Little Billie.",
    ]
    deal = board.model_copy(update={"deal_number": 3, "min_races": 0})
    assert leaderboard_text(deal, UTC).splitlines()[1] == (
        "  Nobody has won public deal 3 of Little Billie yet."
    )


def test_account_refusals_are_sentences_naming_their_code() -> None:
    taken = Error(id=1, code=ErrorCode.ACCOUNT_NAME_TAKEN, message="sign in or pick another name")
    assert account_error(taken) == "Sign in or pick another name (account/name-taken)."
    bad_key = Error(id=1, code=ErrorCode.ACCOUNT_BAD_KEY)
    assert account_error(bad_key) == "The server knows no account with this key (account/bad-key)."
    limited = Error(id=None, code=ErrorCode.PROTO_RATE_LIMITED, message="slow down")
    assert account_error(limited) == "Slow down (proto/rate-limited)."


def test_tables_pad_columns_and_trim_the_ends() -> None:
    assert table(("A", "Num", ""), [("xyz", "7", ""), ("b", "1234", "note")], right={1}) == [
        "  A     Num",
        "  xyz     7",
        "  b    1234  note",
    ]
