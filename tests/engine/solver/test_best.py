"""The best-first search: its score, and its wins replayed through the engine."""

from engine import Outcome, find_variant, new_game, outcome, replay
from engine.solver import Budget, solve
from engine.solver._best import BestFirst, score
from engine.solver._children import building_children
from engine.solver._game import Game, is_won, state_key
from tests.engine._positions import CANFIELD, MILLIGAN, double_canfield

RULES = find_variant(CANFIELD)


def test_cards_home_and_the_reserve_played_out_score_better() -> None:
    start = double_canfield(["Kc", "Qh"], foundations=["Ac"], reserve="9d 8s")
    home = double_canfield(["Kc"], foundations=["Ac", "Qh"], reserve="9d 8s")
    fewer = double_canfield(["Kc", "Qh", "8s"], foundations=["Ac"], reserve="9d")
    buried = double_canfield(["Qh Kc", "5d"], foundations=["Ac"], reserve="9d 8s")
    assert score(RULES, home) < score(RULES, start)
    assert score(RULES, fewer) < score(RULES, start)
    assert score(RULES, start) < score(RULES, buried)


def test_a_deal_the_depth_first_searches_do_not_win_soon_is_won_and_replays() -> None:
    """Deal 4 is undecided by the depth-first searches after 20,000 positions."""
    game = Game.of(RULES, quick=True)
    state = new_game(CANFIELD, b"deal:4")
    search = BestFirst(
        RULES,
        lambda s: state_key(game, s),
        is_won,
        lambda s, moved: building_children(game, s, moved),
        state,
        expired=None,
    )
    line = search.run(5_000)
    assert line is not None
    assert search.nodes < 5_000
    moves = [move.format() for move in line]
    assert outcome(replay(CANFIELD, b"deal:4", moves)) == Outcome.WON


def test_little_milligan_deals_the_depth_first_searches_missed_are_won() -> None:
    """Deals 56 and 115 were undecided at 10 CPU seconds before the best-first
    searches joined; now a few thousand positions win them."""
    for deal in (56, 115):
        verdict = solve(new_game(MILLIGAN, b"deal:%d" % deal), Budget(nodes=10_000))
        assert verdict.result == "won"
        assert outcome(replay(MILLIGAN, b"deal:%d" % deal, verdict.moves)) == Outcome.WON
