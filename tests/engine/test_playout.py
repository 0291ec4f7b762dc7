"""Whole games: the greedy player finishes hundreds of seeded deals per
variant, and every game ends in a state the engine agrees with."""

from collections import Counter

import pytest

from bench.greedy import play
from engine import VARIANT_KEYS, Outcome, legal_moves, outcome, progress, replay

GAMES = 200
MIN_WINS = {"little-forty": GAMES // 2, "little-milligan": GAMES // 10}


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_greedy_player_finishes_seeded_games(variant: str) -> None:
    results: Counter[Outcome] = Counter()
    for number in range(GAMES):
        seed = b"playout %d" % number
        result = play(variant, seed)
        results[result.outcome] += 1
        state = result.state
        assert outcome(state) == result.outcome
        if result.outcome == Outcome.WON:
            assert not legal_moves(state)
        elif result.outcome == Outcome.PLAYING:
            assert legal_moves(state)
        if number % 20 == 0:
            assert replay(variant, seed, result.moves) == state
        assert progress(state) <= (52 if variant == "little-milligan" else 104)
    assert results[Outcome.WON] >= MIN_WINS.get(variant, 0)
