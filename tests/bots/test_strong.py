"""The strong level: it plays on what a player sees, never on the hidden cards,
and it does not resign while a card can still go home."""

from __future__ import annotations

import random

import pytest

import engine
from bots.levels import LEVELS, Level
from bots.selfplay import play_deal
from bots.strategy import choose_at
from bots.strong import sample_deals, unseen_cards
from engine.solver import Budget
from engine.solver.dead_end import reach_home
from protocol import BoardView


def _board(game: engine.GameState) -> BoardView:
    return BoardView.from_engine(engine.view(game))


def _permuted(game: engine.GameState, seed: int) -> engine.GameState:
    """``game`` with its face-down cards (stock, reserve under its top) in another order."""
    hidden = [*game.stock, *game.reserve[:-1]]
    random.Random(seed).shuffle(hidden)
    stock, reserve = hidden[: len(game.stock)], hidden[len(game.stock) :]
    return game.evolve(stock=tuple(stock), reserve=(*reserve, *game.reserve[-1:]))


@pytest.mark.parametrize("variant", ["little-milligan", "double-canfield-40", "little-forty"])
def test_a_sampled_deal_shows_the_board_the_player_sees(variant: str) -> None:
    game = engine.new_game(variant, b"deal:2")
    hidden = sorted([*game.stock, *game.reserve[:-1]])
    assert unseen_cards(_permuted(game, 1)) == hidden
    for sample in sample_deals(game, random.Random(3), 4):
        assert engine.view(sample) == engine.view(game)
        assert sorted([*sample.stock, *sample.reserve[:-1]]) == hidden
    assert len({sample.stock for sample in sample_deals(game, random.Random(3), 4)}) == 4


@pytest.mark.parametrize(("variant", "deal"), [("little-milligan", 3), ("double-canfield-40", 2)])
def test_strong_moves_are_the_same_with_the_hidden_cards_permuted(variant: str, deal: int) -> None:
    """Played side by side on the real deal and on one with its face-down cards
    in another order, the strong bot makes the same moves for as long as both
    boards look the same (until a card shown differs)."""
    real = engine.new_game(variant, b"deal:%d" % deal)
    other = _permuted(real, 99)
    assert other.stock != real.stock
    rngs = random.Random(5), random.Random(5)
    tried: set[tuple[BoardView, str]] = set()
    played = 0
    while _board(real) == _board(other) and played < 6:
        board = _board(real)
        moves = [choose_at("strong", board, tried, rng) for rng in rngs]
        assert moves[0] is not None and moves[0] == moves[1]
        tried.add((board, moves[0].format()))
        real, other = engine.apply(real, moves[0]), engine.apply(other, moves[0])
        played += 1
    assert played >= 2


def _stops_only_when_dead(variant: str, deal: int, level: Level) -> None:
    played = play_deal(variant, deal, level, deal)
    game = engine.new_game(variant, b"deal:%d" % deal)
    for move in played.line:
        game = engine.apply(game, engine.Move.parse(move))
    if not played.won:
        assert reach_home(game, Budget(nodes=200_000)).answer == "cannot", (level, deal)


@pytest.mark.parametrize("level", LEVELS[:3])
@pytest.mark.parametrize("deal", range(1, 9))
def test_a_bot_stops_only_when_no_card_can_go_home(level: Level, deal: int) -> None:
    _stops_only_when_dead("little-milligan", deal, level)


@pytest.mark.slow
@pytest.mark.parametrize("deal", [1, 3, 7])
def test_the_strong_bot_stops_only_when_no_card_can_go_home(deal: int) -> None:
    _stops_only_when_dead("little-milligan", deal, "strong")


@pytest.mark.slow
def test_the_strong_bot_wins_the_deal_careful_leaves_at_5_cards_home() -> None:
    """Little Milligan deal 3, as in issue 28: the careful bot is out of moves
    with 5 of 52 cards home; the solver wins it, and so does the strong bot."""
    assert play_deal("little-milligan", 3, "good", 3).home == 5
    assert play_deal("little-milligan", 3, "strong", 3).won
