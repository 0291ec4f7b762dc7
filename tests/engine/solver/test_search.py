"""The solver on real deals: wins replay through the engine, budgets hold,
results repeat."""

import pytest

from engine import EngineError, Outcome, new_game, outcome, replay
from engine.solver import Budget, Verdict, solve
from tests.engine._positions import BILLIE, CANFIELD, FORTY, MILLIGAN

WON_DEALS = [(FORTY, 5), (MILLIGAN, 4), (CANFIELD, 7)]
"""Public deals the solver wins within a small budget (Little Billie's wins
are rare; its winning lines are checked on tiny positions)."""
HARD_DEALS = [(MILLIGAN, 1), (BILLIE, 2), (FORTY, 7), (CANFIELD, 1)]
"""Public deals it does not decide within a few hundred positions."""


def seed(deal: int) -> bytes:
    return b"deal:%d" % deal


@pytest.mark.parametrize(("variant", "deal"), WON_DEALS)
def test_a_win_replays_through_the_engine_to_a_won_game(variant: str, deal: int) -> None:
    verdict = solve(new_game(variant, seed(deal)), Budget(nodes=20_000))
    assert verdict.result == "won"
    assert outcome(replay(variant, seed(deal), verdict.moves)) == Outcome.WON


@pytest.mark.parametrize(("variant", "deal"), HARD_DEALS)
@pytest.mark.parametrize("nodes", [1, 2, 300])
def test_a_node_budget_is_never_exceeded(variant: str, deal: int, nodes: int) -> None:
    verdict = solve(new_game(variant, seed(deal)), Budget(nodes=nodes))
    assert verdict == Verdict("undecided", (), verdict.nodes)
    assert verdict.nodes <= nodes


@pytest.mark.parametrize(("variant", "deal"), HARD_DEALS)
def test_the_search_stops_soon_after_the_time_is_up(variant: str, deal: int) -> None:
    calls: list[int] = []

    def expired() -> bool:
        calls.append(1)
        return len(calls) > 3

    verdict = solve(new_game(variant, seed(deal)), Budget(expired=expired))
    assert verdict.result == "undecided"
    assert len(calls) == 4
    assert verdict.nodes <= 4 * 16 * 2


@pytest.mark.parametrize(("variant", "deal"), WON_DEALS + HARD_DEALS)
def test_the_same_position_and_budget_give_the_same_verdict(variant: str, deal: int) -> None:
    first = solve(new_game(variant, seed(deal)), Budget(nodes=2_000))
    assert solve(new_game(variant, seed(deal)), Budget(nodes=2_000)) == first


def test_a_won_position_is_won_with_no_moves() -> None:
    line = solve(new_game(MILLIGAN, seed(4)), Budget(nodes=1_000)).moves
    won = replay(MILLIGAN, seed(4), line)
    assert solve(won, Budget(nodes=1)) == Verdict("won", (), 0)


def test_a_node_budget_below_one_is_refused() -> None:
    with pytest.raises(EngineError):
        Budget(nodes=0)
