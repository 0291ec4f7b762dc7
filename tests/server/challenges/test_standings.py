"""A challenge's standings, pure: the ranking on race-clock times, "behind by", what is hidden."""

from __future__ import annotations

from dataclasses import replace

from protocol import Settings
from server.challenges.records import (
    Challenge,
    Run,
    pack,
    split,
    unpack_challenge,
    unpack_run,
    with_log,
)
from server.challenges.standings import behind_ms, info, is_closed, ranked

START = 1_000_000
CHALLENGE = Challenge(
    code="ABCDEF",
    variant="little-forty",
    settings=Settings(),
    seed=b"s" * 32,
    room="GHJKLM",
    race_no=1,
    created_ms=START,
    closes_at_ms=START + 10_000,
    key_digest="0" * 64,
    raced_by=("a-ann",),
)


def run(
    name: str, start: int, outcome: str, progress: int, reached: tuple[int, ...], *, end: int
) -> Run:
    """A run that began at `start`, reached its cards at those race times, ended at `end`."""
    last = reached[-1] if reached else 0
    return Run(
        name=name,
        account="",
        original=False,
        start_at_ms=start,
        outcome=outcome,
        progress=progress,
        progress_at_ms=start + last,
        moves=len(reached),
        finished_at_ms=start + end,
        reached=reached,
        log=tuple((f"m{i}", start + at, f"id{i}") for i, at in enumerate(reached)),
    )


def test_runs_rank_by_race_time_not_by_when_they_were_raced() -> None:
    slow_win = run("Slow", START, "won", 40, tuple(range(100, 4100, 100)), end=5_000)
    fast_win = run("Fast", START + 10**9, "won", 40, tuple(range(50, 2050, 50)), end=3_000)
    most = run("Most", START + 5, "resigned", 12, tuple(range(10, 130, 10)), end=9_000)
    tied = run("Tied", START + 9, "timeout", 12, tuple(range(10, 130, 10)), end=9_500)
    fewer = run("Fewer", START, "stuck", 3, (1, 2, 3), end=50)
    order = ranked([most, slow_win, fewer, tied, fast_win])
    assert [r.name for r in order] == ["Fast", "Slow", "Most", "Tied", "Fewer"]


def test_behind_is_measured_at_the_highest_count_both_reached() -> None:
    first = run("First", START, "won", 3, (100, 200, 300), end=300)
    second = run("Second", START + 50, "resigned", 2, (150, 120 + 500), end=900)
    assert behind_ms(second, first) == 620 - 200
    assert behind_ms(first, second) == 200 - 620
    assert behind_ms(run("None", START, "resigned", 0, (), end=10), first) is None


def test_an_open_challenge_shows_no_seed_and_no_move() -> None:
    runs = [run("A", START, "won", 2, (5, 9), end=9), run("B", START, "stuck", 1, (7,), end=20)]
    shown = info(CHALLENGE, runs, None, CHALLENGE.closes_at_ms - 1)
    assert (shown.closed, shown.seed) == (False, None)
    assert [r.log for r in shown.runs] == [(), ()]
    assert [(r.place, r.behind_ms) for r in shown.runs] == [(1, None), (2, 7 - 5)]
    revealed = info(CHALLENGE, runs, None, CHALLENGE.closes_at_ms)
    assert revealed.closed and revealed.seed == CHALLENGE.seed.hex()
    assert [len(r.log) for r in revealed.runs] == [2, 1]


def test_closed_early_or_by_time() -> None:
    assert not is_closed(CHALLENGE, None, CHALLENGE.closes_at_ms - 1)
    assert is_closed(CHALLENGE, None, CHALLENGE.closes_at_ms)
    assert is_closed(CHALLENGE, START + 1, START + 2)
    early = info(CHALLENGE, [], START + 1, START + 2)
    assert early.closes_at_ms == START + 1 and early.total_runs == 0


def test_records_round_trip() -> None:
    one = run("A", START, "won", 2, (5, 9), end=9)
    assert unpack_run(pack(one)) == one
    assert unpack_challenge(pack(CHALLENGE)) == CHALLENGE
    summary, log = split(one)
    assert unpack_run(summary).log == () and with_log(unpack_run(summary), log) == one
    assert with_log(unpack_run(summary), None).log == ()
    assert unpack_challenge(pack(replace(CHALLENGE, raced_by=()))).raced_by == ()
