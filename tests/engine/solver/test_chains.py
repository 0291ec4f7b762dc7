"""Little Billie's chosen moves and blocked last deals, against an exhaustive search."""

import random

import pytest

from engine import GameState, apply, find_variant, legal_moves, new_game
from engine.solver._chains import blocked
from engine.solver._fans import Child, Fans
from tests.engine._positions import BILLIE, little_billie
from tests.engine.solver._tiny import tiny_position, winnable

RULES = find_variant(BILLIE)
DONE = ["Kc", "Kd", "Jh", "Ks", "Ac", "Ad", "2h", "As"]
"""Every suit home but three hearts: the Queen and King up, the Ace down."""


def test_a_king_over_the_queen_it_waits_for_is_blocked() -> None:
    state = little_billie(["Qh Kh", "Ah"], foundations=DONE, passes=2)
    assert blocked(RULES, state)
    assert not winnable(state)


def test_a_king_under_its_queen_is_not_blocked() -> None:
    state = little_billie(["Kh Qh", "Ah"], foundations=DONE, passes=2)
    assert not blocked(RULES, state)
    assert winnable(state)


def test_last_deals_found_blocked_are_never_winnable() -> None:
    rng = random.Random("blocked last deals")
    found = {"blocked": 0, "winnable": 0}
    for index in range(60):
        state = tiny_position(BILLIE, rng, rng.randint(8, 14), crowded=index % 2 == 1)
        state = state.evolve(passes=RULES.redeals)
        is_blocked, can_win = blocked(RULES, state), winnable(state)
        assert not (is_blocked and can_win)
        found["blocked"] += is_blocked
        found["winnable"] += can_win
    assert min(found.values()) > 0


def dead_ends(state: GameState, *, reduced: bool) -> set[tuple[int, ...]]:
    """The foundations of every position with no move but a redeal that can
    be reached from ``state`` without redealing, playing every legal move or
    only the solver's chosen ones."""
    return chosen_dead_ends(state) if reduced else all_dead_ends(state)


def all_dead_ends(state: GameState) -> set[tuple[int, ...]]:
    seen = {state}
    todo = [state]
    found: set[tuple[int, ...]] = set()
    while todo:
        position = todo.pop()
        moves = [move for move in legal_moves(position) if move.action != "redeal"]
        children = [apply(position, move) for move in moves]
        if not children:
            found.add(position.foundations)
        for child in children:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return found


def chosen_dead_ends(state: GameState) -> set[tuple[int, ...]]:
    space = Fans(RULES, state)
    seen = {space.key(space.start)}
    todo = [space.start]
    found: set[tuple[int, ...]] = set()
    while todo:
        position = todo.pop()
        passes = position[0].passes
        children = [child for _, child, _ in space.children(position) if child[0].passes == passes]
        if not children:
            found.add(space.state(position).foundations)
        for child in children:
            if space.key(child) not in seen:
                seen.add(space.key(child))
                todo.append(child)
    return found


def test_the_chosen_moves_reach_a_dead_end_where_the_other_chain_takes_a_twin() -> None:
    """The up hearts take a 5h that is on top; the down hearts, waiting for a
    6h, could take that same 5h later. Trying the up hearts alone (the other
    5h lies under a 9h only they take) would never reach the dead end where
    the down hearts took it."""
    done = ["Kc", "Kd", "4h", "Ks", "Ac", "Ad", "7h", "As"]
    fans = ["5h", "6h", "5h 9h", "Ah 2h 3h 4h", "6h 7h 8h Th", "Jh Qh Kh"]
    state = little_billie(fans, foundations=done, passes=1)
    assert dead_ends(state, reduced=True) == dead_ends(state, reduced=False)


def test_the_chosen_moves_reach_every_dead_end_of_tiny_positions() -> None:
    rng = random.Random("dead ends")
    for index in range(40):
        state = tiny_position(BILLIE, rng, rng.randint(8, 16), crowded=index % 2 == 1)
        assert dead_ends(state, reduced=True) == dead_ends(state, reduced=False)


@pytest.mark.parametrize("deal", [1, 16])
def test_answers_remembered_by_a_search_are_those_worked_out_afresh(deal: int) -> None:
    """The chosen moves and redeals a search remembers (by foundations, and
    by the cards on the cards waited for or the cards left) are those a
    fresh start gives, at each of the first positions a search of a dealt
    game reaches (every one in deal 1, redeals included)."""
    space = Fans(RULES, new_game(BILLIE, b"deal:%d" % deal))
    seen = {space.key(space.start)}
    todo = [space.start]
    for _ in range(1500):
        if not todo:
            break
        position = todo.pop()
        children = space.children(position)
        assert states(space, children) == fresh_children(space.state(position))
        for _, child, _ in reversed(children):
            if space.key(child) not in seen:
                seen.add(space.key(child))
                todo.append(child)


def states(space: Fans, children: list[Child]) -> list[object]:
    return [(moves, space.state(child)) for moves, child, _ in children]


def fresh_children(state: GameState) -> list[object]:
    fresh = Fans(RULES, state)
    return states(fresh, fresh.children(fresh.start))
