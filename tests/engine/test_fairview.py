"""Spectator boards during a race: nothing of the deal's secret orders shows
before every racer still racing has seen it in their own game."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    HIDDEN_CARD,
    VARIANT_KEYS,
    Move,
    Seen,
    TrackedGame,
    legal_moves,
    seen,
    seen_by_all,
    spectator_view,
    view,
)
from engine._origins import Origins
from engine.state import EMPTY
from tests.engine._positions import BILLIE, CANFIELD, FORTY, MILLIGAN, card, piles
from tests.engine._race import Race

DEAL_1 = b"deal:1"
"""The seed of public deal number 1."""


def moves(game: TrackedGame, *texts: str) -> TrackedGame:
    for text in texts:
        game = game.apply(Move.parse(text))
    return game


def test_nothing_is_hidden_at_the_start() -> None:
    for variant in VARIANT_KEYS:
        a, b = TrackedGame.start(variant, DEAL_1), TrackedGame.start(variant, DEAL_1)
        assert spectator_view(a, seen_by_all([a.state, b.state])) == view(a.state)


def test_a_draw_shows_only_once_every_racer_has_drawn_as_far() -> None:
    a = moves(TrackedGame.start(FORTY, DEAL_1), "draw")
    b = TrackedGame.start(FORTY, DEAL_1)
    masked = spectator_view(a, seen_by_all([a.state, b.state]))
    assert masked.waste == (HIDDEN_CARD,) * 3
    assert (masked.stock, masked.tableau) == (61, view(a.state).tableau)
    b = moves(b, "draw")
    assert view(b.state).waste == view(a.state).waste == ("5d", "6c", "8c")
    assert spectator_view(a, seen_by_all([a.state, b.state])).waste == ("5d", "6c", "8c")
    a = moves(a, "draw")
    assert spectator_view(a, seen_by_all([a.state, b.state])).waste == (
        ("5d", "6c", "8c") + (HIDDEN_CARD,) * 3
    )


def test_a_drawn_card_stays_hidden_on_the_tableau() -> None:
    a = moves(TrackedGame.start(FORTY, DEAL_1), "draw", "w t3")
    b = TrackedGame.start(FORTY, DEAL_1)
    assert spectator_view(a, seen_by_all([a.state, b.state])).tableau[2][-1] == HIDDEN_CARD
    b = moves(b, "draw")
    assert spectator_view(a, seen_by_all([a.state, b.state])).tableau[2][-1] == "8c"


def test_a_finished_racer_no_longer_limits_what_is_shown() -> None:
    a = moves(TrackedGame.start(FORTY, DEAL_1), "draw", "draw")
    assert spectator_view(a, seen_by_all([a.state])) == view(a.state)
    assert spectator_view(a, seen_by_all([])) == view(a.state)
    assert seen_by_all([]) is None


def test_the_reserve_top_shows_once_every_racer_has_turned_it() -> None:
    a = moves(TrackedGame.start(CANFIELD, DEAL_1), "r f2")
    b = TrackedGame.start(CANFIELD, DEAL_1)
    masked = spectator_view(a, seen_by_all([a.state, b.state]))
    assert masked.foundations[:2] == ("2s", "2c")
    assert (masked.reserve, masked.reserve_hidden) == (HIDDEN_CARD, 38)
    b = moves(b, "r t2")
    assert spectator_view(a, seen_by_all([a.state, b.state])) == view(a.state)


def test_a_dealt_row_shows_once_every_racer_has_dealt_it() -> None:
    a = moves(TrackedGame.start(MILLIGAN, DEAL_1), "deal")
    b = TrackedGame.start(MILLIGAN, DEAL_1)
    masked = spectator_view(a, seen_by_all([a.state, b.state]))
    assert [pile[-1] for pile in masked.tableau] == [HIDDEN_CARD] * 8
    assert [len(pile) for pile in masked.tableau] == [2] * 8
    b = moves(b, "deal")
    assert spectator_view(a, seen_by_all([a.state, b.state])) == view(a.state)


def first_moves(game: TrackedGame, count: int) -> TrackedGame:
    for _ in range(count):
        game = game.apply(legal_moves(game.state)[0])
    return game


def test_a_redealt_layout_shows_once_every_racer_has_redealt() -> None:
    a = first_moves(TrackedGame.start(BILLIE, DEAL_1), 7)
    b = a
    a = redealt = moves(a, "redeal")
    masked = spectator_view(a, seen_by_all([a.state, b.state]))
    assert all(text == HIDDEN_CARD for pile in masked.tableau for text in pile)
    assert [len(pile) for pile in masked.tableau] == [len(pile) for pile in a.state.tableau]
    assert masked.foundations == view(a.state).foundations
    a = first_moves(a, 1)
    masked = spectator_view(a, seen_by_all([a.state, b.state]))
    assert masked.foundations == tuple(
        None if top is None else HIDDEN_CARD for top in view(a.state).foundations
    )
    b = moves(b, "redeal")
    assert b.state.tableau == redealt.state.tableau, "the same cards left give the same fans"
    assert spectator_view(a, seen_by_all([a.state, b.state])) == view(a.state)


def test_every_foundation_is_hidden_while_any_card_on_one_is() -> None:
    """Stock positions of Little Forty start at 40; ``45`` is the sixth card drawn.
    Hiding only the foundation that grew would name its card: the one after the
    top shown before."""
    state = TrackedGame.start(FORTY, DEAL_1).state.evolve(
        tableau=piles([], 10),
        foundations=(card("3c"), card("Ah"), *[EMPTY] * 6),
        stock=(),
    )
    origins = Origins(piles([], 10), ((3, 45, 7), (9,), *[()] * 6), (), (), ())
    game = TrackedGame(state, origins)
    hidden = spectator_view(game, Seen(stock=5, reserve=0, redeals=0)).foundations
    assert hidden == (HIDDEN_CARD, HIDDEN_CARD, *[None] * 6)
    shown = spectator_view(game, Seen(stock=6, reserve=0, redeals=0)).foundations
    assert shown == ("3c", "Ah", *[None] * 6)


def test_seen_counts_each_secret_order() -> None:
    assert seen(TrackedGame.start(CANFIELD, DEAL_1).state) == Seen(stock=0, reserve=1, redeals=0)
    forty = moves(TrackedGame.start(FORTY, DEAL_1), *["draw"] * 22)
    assert seen(forty.state) == Seen(stock=64, reserve=0, redeals=0)
    assert seen(moves(forty, "recycle").state) == Seen(stock=64, reserve=0, redeals=0)
    assert seen(moves(TrackedGame.start(MILLIGAN, DEAL_1), "deal").state).stock == 8


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_every_board_of_pinned_races_hides_what_a_racer_has_not_seen(variant: str) -> None:
    hidden: Counter[str] = Counter()
    for number in (1, 2, 3):
        race = Race.start(variant, b"deal:%d" % number, players=3)
        race.check()
        race.run(random.Random(number), steps=300)
        hidden += race.hidden_seen
    expected = {
        FORTY: {"waste", "tableau", "foundation"},
        CANFIELD: {"waste", "reserve"},
        MILLIGAN: {"tableau"},
        BILLIE: {"tableau", "foundation"},
    }[variant]
    assert expected <= set(hidden), hidden


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(VARIANT_KEYS),
    seed=st.binary(min_size=1, max_size=64),
    players=st.integers(min_value=2, max_value=4),
    choices=st.integers(min_value=0, max_value=2**32),
)
def test_no_spectator_board_shows_what_a_racer_has_not_seen(
    variant: str, seed: bytes, players: int, choices: int
) -> None:
    race = Race.start(variant, seed, players)
    race.check()
    race.run(random.Random(choices), steps=120, quit_chance=0.02)
