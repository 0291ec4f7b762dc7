"""The final ranking's order and the reason each line gives for its place."""

from __future__ import annotations

import pytest

from protocol import PlayerOutcome, PlayerResult
from server.lifecycle.ranking import PlayerStats, race_results
from server.lifecycle.room import Player

START = 1_000_000


def _player(seat: int, outcome: PlayerOutcome, after_ms: int) -> Player:
    return Player(seat, f"P{seat}", outcome=outcome, finished_at_ms=START + after_ms)


def _stats(progress: int, after_ms: int, moves: int = 0) -> PlayerStats:
    return PlayerStats(progress=progress, progress_at_ms=START + after_ms, moves=moves)


def _results(*lines: tuple[Player, PlayerStats]) -> tuple[PlayerResult, ...]:
    return race_results((player for player, _ in lines), {p.seat: s for p, s in lines}, START)


def test_every_place_names_the_comparison_that_decided_it() -> None:
    """Seats are listed out of order; each line is compared with the one just above."""
    results = _results(
        (_player(4, "timeout", 60_000), _stats(10, 400)),
        (_player(1, "won", 900), _stats(104, 900)),
        (_player(2, "resigned", 5000), _stats(12, 900)),
        (_player(6, "won", 500), _stats(104, 500)),
        (_player(5, "resigned", 5000), _stats(10, 400)),
        (_player(3, "stuck", 3000), _stats(10, 300)),
        (_player(0, "won", 500), _stats(104, 500)),
    )
    assert [(r.rank, r.seat, r.decided_by) for r in results] == [
        (1, 0, None),
        (2, 6, "seat"),  # won at the same millisecond as seat 0
        (3, 1, "finish_time"),
        (4, 2, "outcome"),  # the best of those who did not win
        (5, 3, "progress"),  # 10 cards home against 12
        (6, 4, "progress_time"),  # 10 cards too, reached 100 ms after seat 3
        (7, 5, "seat"),  # 10 cards at the same millisecond as seat 4
    ]


def test_how_a_race_ended_for_those_who_did_not_win_is_not_compared() -> None:
    """Stuck, resigned and timed out rank alike: a resignation with more cards home
    is above a timeout with fewer."""
    results = _results(
        (_player(0, "timeout", 60_000), _stats(30, 100)),
        (_player(1, "resigned", 2000), _stats(31, 1500)),
    )
    assert [(r.seat, r.decided_by) for r in results] == [(1, None), (0, "progress")]


def test_moves_made_are_not_compared() -> None:
    results = _results(
        (_player(0, "won", 800), _stats(52, 800, moves=300)),
        (_player(1, "won", 800), _stats(52, 800, moves=90)),
    )
    assert [(r.seat, r.decided_by) for r in results] == [(0, None), (1, "seat")]


def test_a_player_still_racing_has_no_place() -> None:
    with pytest.raises(ValueError, match="still racing"):
        _results((Player(0, "P0"), _stats(3, 10)))
