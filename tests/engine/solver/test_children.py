"""Little Milligan's greedy quick search: a move home, when there is one, is
the only move it tries."""

from dataclasses import replace

from engine import GameState, find_variant, new_game
from engine.solver import Budget, solve
from engine.solver._children import building_children
from engine.solver._game import Game
from tests.engine._positions import MILLIGAN, little_milligan

QUICK = Game.of(find_variant(MILLIGAN), quick=True)
GREEDY = replace(QUICK, greedy_home=True)


def tried(game: Game, state: GameState) -> list[str]:
    return [
        " ".join(move.format() for move in moves)
        for moves, _, _ in building_children(game, state, None)
    ]


def test_a_move_home_is_the_only_move_tried() -> None:
    """The Three of hearts may go home, though a black Two could still lie on it."""
    state = little_milligan(["3h", "Qs", "Jd"], foundations=["", "", "2h"], stock="4c")
    assert len(tried(QUICK, state)) > 1
    assert tried(GREEDY, state) == tried(QUICK, state)[:1]
    assert tried(GREEDY, state) == ["t1 f3"]


def test_with_no_move_home_every_quick_move_is_tried() -> None:
    state = little_milligan(["3h", "Qs", "Jd"], stock="4c")
    assert tried(GREEDY, state) == tried(QUICK, state)


def test_a_deal_the_quick_search_wins_late_is_won_early() -> None:
    """The quick search alone needs over 30,000 positions for deal 64."""
    verdict = solve(new_game(MILLIGAN, b"deal:64"), Budget(nodes=20_000))
    assert verdict.result == "won"
