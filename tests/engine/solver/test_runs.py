"""Piles that are always one run: when the search may take a whole pile as
its run (Double Canfield 40), and that doing so lists the same children."""

import random
from dataclasses import replace

from engine import GameState, apply, find_variant, legal_moves, new_game
from engine.solver._best import score
from engine.solver._children import building_children
from engine.solver._game import Game, piles_stay_runs, state_key
from tests.engine._positions import CANFIELD, FORTY, double_canfield, little_forty


def listed(game: Game, state: GameState) -> list[tuple[str, bytes]]:
    return [
        (" ".join(move.format() for move in moves), state_key(game, child))
        for moves, child, _ in building_children(game, state, None)
    ]


def played(variant: str, deal: int, moves: int) -> list[GameState]:
    """The positions of a line of random legal moves (seeded by the deal)."""
    state = new_game(variant, b"deal:%d" % deal)
    chooser = random.Random(deal)
    line = [state]
    for _ in range(moves):
        choices = legal_moves(state)
        if not choices:
            break
        state = apply(state, chooser.choice(choices))
        line.append(state)
    return line


def test_double_canfield_columns_stay_runs_and_list_the_same_children() -> None:
    rules = find_variant(CANFIELD)
    game = Game.of(rules)
    runs = replace(game, piles_are_runs=True)
    for deal in range(1, 6):
        for state in played(CANFIELD, deal, 150):
            assert piles_stay_runs(rules, state)
            assert listed(runs, state) == listed(game, state)
            assert score(rules, state, piles_are_runs=True) == score(rules, state)


def test_a_pile_that_is_not_one_run_turns_the_shortcut_off() -> None:
    assert piles_stay_runs(find_variant(CANFIELD), double_canfield(["Kc Qh", "5h"]))
    assert not piles_stay_runs(find_variant(CANFIELD), double_canfield(["Kc Qc", "5h"]))
    assert not piles_stay_runs(find_variant(FORTY), little_forty(["Kc 5d", "5h"]))
    assert piles_stay_runs(find_variant(FORTY), little_forty(["Kc Qd", "5h"]))


def test_games_that_lay_cards_on_piles_never_take_the_shortcut() -> None:
    for variant in ("little-milligan", "little-billie"):
        state = new_game(variant, b"deal:1").evolve(tableau=((0,),) * 8)
        assert not piles_stay_runs(find_variant(variant), state)
