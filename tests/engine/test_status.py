"""`outcome` and `progress` against plain statements of the rules (`tests.engine._plain`)
over many seeded positions of every variant."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import (
    VARIANT_KEYS,
    GameState,
    Outcome,
    find_variant,
    outcome,
    progress,
    wanted_cards,
)
from tests.engine._mixed import blocked, dealt_again, one_card_decides, walked, won
from tests.engine._plain import plain_outcome, plain_progress, plain_wanted, plays

DRAWING = ("little-forty", "double-canfield-40")


def walks(variant: str) -> list[GameState]:
    return walked(variant, games=5, seed=1)


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_outcome_and_progress_follow_the_rules_along_random_walks(variant: str) -> None:
    states = walks(variant)
    assert len(states) > 100
    for state in states:
        assert outcome(state) is plain_outcome(state), state
        assert progress(state) == plain_progress(state), state


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_outcome_follows_the_rules_in_positions_dealt_anew(variant: str) -> None:
    states = dealt_again(walks(variant), seed=2)
    states += blocked(states, seed=3)
    seen: Counter[Outcome] = Counter()
    for state in states:
        assert outcome(state) is plain_outcome(state), state
        seen[outcome(state)] += 1
    assert seen[Outcome.PLAYING] >= 20 and seen[Outcome.STUCK] >= 10


@pytest.mark.parametrize("variant", DRAWING)
def test_outcome_when_only_one_card_in_the_stock_or_waste_could_play(variant: str) -> None:
    stuck = [
        state
        for state in blocked(dealt_again(walks(variant), seed=4), seed=5)
        if plain_outcome(state) is Outcome.STUCK and len(state.stock) + len(state.waste) > 3
    ]
    fits = [next(card for card in range(52) if plays(state, card)) for state in stuck]
    seen: Counter[Outcome] = Counter()
    for state in one_card_decides(stuck, fits):
        assert outcome(state) is plain_outcome(state), state
        seen[outcome(state)] += 1
    assert seen[Outcome.PLAYING] > 50 and seen[Outcome.STUCK] > 50


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_a_game_with_every_card_home_is_won(variant: str) -> None:
    state = won(variant)
    assert outcome(state) is Outcome.WON
    assert progress(state) == find_variant(variant).total == plain_progress(state)


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_wanted_cards_are_those_a_foundation_takes(variant: str) -> None:
    states = walks(variant)[::7]
    for state in states:
        assert wanted_cards(state) == plain_wanted(state), state
