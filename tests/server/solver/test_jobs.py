"""Solver jobs: plain values in, plain tuples out, lines the engine accepts.

Pinned public deals whose verdicts the solver reaches in milliseconds: Little
Milligan 2 is won, Little Billie 7 is proven unwinnable, and Little Milligan 1
is not decided within a millisecond of CPU.
"""

from __future__ import annotations

import pickle

import engine
from server.solver.jobs import deal_verdict, winning_line

WON = ("little-milligan", b"deal:2")
UNWINNABLE = ("little-billie", b"deal:7")
HARD = ("little-milligan", b"deal:1")


def test_a_won_deal_reports_the_length_of_a_line_that_wins() -> None:
    result, length = deal_verdict(*WON, 5.0)
    _, line = winning_line(*WON, (), 5.0)
    assert (result, length) == ("won", len(line))
    assert engine.outcome(engine.replay(*WON, line)) is engine.Outcome.WON


def test_an_unwinnable_deal_has_no_line() -> None:
    assert deal_verdict(*UNWINNABLE, 5.0) == ("unwinnable", None)
    assert winning_line(*UNWINNABLE, (), 5.0) == ("unwinnable", ())


def test_a_budget_too_small_leaves_the_deal_undecided() -> None:
    assert deal_verdict(*HARD, 0.001) == ("undecided", None)


def test_a_line_from_a_later_position_continues_the_moves_made() -> None:
    _, line = winning_line(*WON, (), 5.0)
    played = line[:10]
    result, rest = winning_line(*WON, played, 5.0)
    assert result == "won"
    assert engine.outcome(engine.replay(*WON, (*played, *rest))) is engine.Outcome.WON


def test_jobs_and_their_results_cross_a_process_boundary() -> None:
    for job in (deal_verdict, winning_line):
        assert pickle.loads(pickle.dumps(job)) is job
    result = winning_line(*WON, (), 5.0)
    assert pickle.loads(pickle.dumps(result)) == result
