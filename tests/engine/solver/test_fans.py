"""Little Billie's lean positions against engine states: the same fans and
foundations, children the engine's moves lead to, and keys that tell
positions apart exactly as the engine states' keys do."""

import itertools
import random

import pytest

from engine import GameState, apply, find_variant, new_game
from engine.solver._fans import Fans, Position
from engine.solver._game import Game, state_key
from tests.engine._positions import BILLIE
from tests.engine.solver._tiny import tiny_position

RULES = find_variant(BILLIE)
GAME = Game.of(RULES)


def dealt(deal: int) -> GameState:
    return new_game(BILLIE, b"deal:%d" % deal)


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_a_dealt_game_is_its_lean_start(deal: int) -> None:
    space = Fans(RULES, dealt(deal))
    assert space.state(space.start) == dealt(deal)


def test_a_tiny_position_is_its_lean_start() -> None:
    rng = random.Random("lean starts")
    for index in range(20):
        state = tiny_position(BILLIE, rng, rng.randint(4, 20), crowded=index % 2 == 1)
        space = Fans(RULES, state)
        assert space.state(space.start) == state


@pytest.mark.parametrize("deal", [2, 16])
def test_each_child_is_where_the_engine_takes_its_moves(deal: int) -> None:
    space = Fans(RULES, dealt(deal))
    seen = {space.key(space.start)}
    todo = [space.start]
    redeals = 0
    for _ in range(3000):
        if not todo:
            break
        position = todo.pop()
        before = space.state(position)
        for moves, child, _ in space.children(position):
            after = before
            for move in moves:
                after = apply(after, move)
            assert space.state(child) == after
            redeals += moves[0].action == "redeal"
            if space.key(child) not in seen:
                seen.add(space.key(child))
                todo.append(child)
    assert redeals > 0


def with_heights(position: Position, changes: dict[int, int]) -> Position:
    deal, heights, chains = position
    changed = bytearray(heights)
    for fan, height in changes.items():
        changed[fan] = height
    return deal, bytes(changed), chains


@pytest.mark.parametrize("deal", [1, 9, 16])
def test_keys_are_equal_exactly_when_the_engine_keys_are(deal: int) -> None:
    """Fans that start with the same card (the only ones that can hold the
    same cards) with every pair of heights, against the engine's key, which
    sorts the fans."""
    space = Fans(RULES, dealt(deal))
    deal_fans = space.start[0].fans
    pairs = [
        (one, two)
        for one, two in itertools.combinations(range(len(deal_fans)), 2)
        if deal_fans[one][0] == deal_fans[two][0]
    ]
    assert pairs
    merged = 0
    for one, two in pairs:
        positions = [
            with_heights(space.start, {one: a, two: b})
            for a, b in itertools.product(range(5), repeat=2)
        ]
        for first, second in itertools.combinations(positions, 2):
            same = state_key(GAME, space.state(first)) == state_key(GAME, space.state(second))
            assert (space.key(first) == space.key(second)) == same
            merged += same
    assert merged > 0
