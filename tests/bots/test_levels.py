"""Bot levels: names, pace, slips, and that each level plays better than the one below."""

from __future__ import annotations

import random

import pytest

import engine
from bots.levels import LEVELS, PAUSE_S, parse_level, think_time
from bots.selfplay import play_deal
from bots.strategy import choose_at
from protocol import BoardView


def test_a_level_is_named_or_numbered() -> None:
    assert [parse_level(str(number)) for number in range(1, 6)] == list(LEVELS)
    assert parse_level(" Strong ") == "strong"
    with pytest.raises(ValueError, match="beginner"):
        parse_level("6")


def test_think_time_grows_with_the_choices_and_varies() -> None:
    few = [think_time("good", 2, random.Random(seed)) for seed in range(200)]
    many = [think_time("good", 30, random.Random(seed)) for seed in range(200)]
    assert sum(many) > 1.5 * sum(few)
    assert len(set(few)) == len(few)
    assert any(time > PAUSE_S[0] for time in few) and min(few) < 1.0


def test_a_beginner_thinks_longer_than_a_strong_bot() -> None:
    def mean(level: str) -> float:
        rng = random.Random(5)
        return sum(think_time(parse_level(level), 8, rng) for _ in range(300)) / 300

    assert mean("beginner") > 2 * mean("strong")


KINGS = (("Kc",),) * 8


def _forty(**fields: object) -> BoardView:
    start = BoardView.from_engine(engine.view(engine.new_game("little-forty", b"deal:1")))
    return start.model_copy(update=fields)


def test_a_beginner_misses_a_card_home_now_and_then_a_good_bot_never() -> None:
    board = _forty(tableau=(("Ac",), ("Kc", "3h"), ("4s",), *KINGS[2:]), stock=5, waste=())

    def picks(level: str) -> set[str]:
        chosen = [choose_at(parse_level(level), board, set(), random.Random(s)) for s in range(60)]
        return {move.format() for move in chosen if move is not None}

    assert picks("good") == {"t1:1 f1"}
    assert "t1:1 f1" in picks("beginner") and len(picks("beginner")) > 1


def test_a_level_replays_exactly_from_its_seed() -> None:
    first = play_deal("little-milligan", 3, "beginner", seed=7)
    assert play_deal("little-milligan", 3, "beginner", seed=7).line == first.line
    assert play_deal("little-milligan", 3, "beginner", seed=8).line != first.line


DEALS = range(1, 9)


@pytest.mark.parametrize("variant", ["little-milligan", "double-canfield-40"])
def test_the_levels_up_to_good_are_ordered_by_cards_home(variant: str) -> None:
    home = [
        sum(play_deal(variant, deal, level, deal).home for deal in DEALS) for level in LEVELS[:3]
    ]
    assert home == sorted(home) and len(set(home)) == 3


@pytest.mark.slow
def test_strong_gets_more_cards_home_than_good() -> None:
    deals = range(1, 5)
    good = sum(play_deal("little-milligan", deal, "good", deal).home for deal in deals)
    strong = sum(play_deal("little-milligan", deal, "strong", deal).home for deal in deals)
    assert strong > good
