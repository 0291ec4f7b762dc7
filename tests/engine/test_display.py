"""The player's view: every field, and no face-down card's identity."""

from dataclasses import FrozenInstanceError

import pytest

from engine import VARIANT_KEYS, GameState, Move, View, apply, find_variant, new_game, view
from engine.cards import format_card
from engine.state import EMPTY
from tests.engine._mixed import blocked, dealt_again, walked
from tests.engine._plain import plain_outcome, plain_progress

SEED = b"view race"


def texts(cards: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(format_card(card) for card in cards)


def test_little_forty_new_game() -> None:
    state = new_game("little-forty", SEED)
    seen = view(state)
    assert seen.variant == "little-forty"
    assert seen.tableau == tuple(texts(pile) for pile in state.tableau)
    assert seen.foundations == (None,) * 8
    assert (seen.stock, seen.waste, seen.reserve, seen.reserve_hidden) == (64, (), None, 0)
    assert (seen.passes_left, seen.base_rank, seen.total) == (2, 1, 104)
    assert (seen.outcome, seen.progress) == ("playing", 0)


def test_little_milligan_has_no_passes() -> None:
    seen = view(new_game("little-milligan", SEED))
    assert (seen.stock, seen.passes_left, seen.total) == (44, 0, 52)
    assert len(seen.tableau) == 8 and all(len(pile) == 1 for pile in seen.tableau)


def test_little_billie_counts_redeals_left() -> None:
    state = new_game("little-billie", SEED)
    assert view(state).passes_left == 2
    assert (
        view(GameState("little-billie", state.tableau, state.foundations, passes=2)).passes_left
        == 0
    )
    assert view(state).stock == 0


def test_double_canfield_shows_only_the_reserve_top() -> None:
    state = new_game("double-canfield-40", SEED)
    seen = view(state)
    assert seen.reserve == format_card(state.reserve[-1])
    assert seen.reserve_hidden == 39
    assert seen.passes_left is None
    assert seen.base_rank == state.foundations[0] % 13 + 1
    assert seen.foundations[0] == format_card(state.foundations[0])
    assert seen.progress == 1


def test_hidden_cards_appear_nowhere_in_the_view() -> None:
    state = new_game("double-canfield-40", SEED)
    seen = view(state)
    face_up = [card for pile in seen.tableau for card in pile] + list(seen.waste)
    face_up += [top for top in seen.foundations if top] + [seen.reserve or ""]
    expected = [card for pile in state.tableau for card in pile]
    expected += [state.foundations[0], state.reserve[-1]]
    assert sorted(face_up) == sorted(texts(tuple(expected)))
    assert isinstance(seen.stock, int) and isinstance(seen.reserve_hidden, int)


def test_waste_reads_bottom_to_top_after_a_draw() -> None:
    state = new_game("little-forty", SEED)
    drawn = apply(state, Move("draw"))
    assert view(drawn).waste == texts(state.stock[-3:][::-1])
    assert view(drawn).waste[-1] == format_card(state.stock[-3])
    assert view(drawn).stock == 61


def test_won_game() -> None:
    won = GameState("little-milligan", ((),) * 8, (12, 25, 38, 51))
    seen = view(won)
    assert (seen.outcome, seen.progress, seen.total) == ("won", 52, 52)
    assert seen.foundations == ("Kc", "Kd", "Kh", "Ks")


def test_stuck_game() -> None:
    # Ac under 2c, and 2c does not go on 3s: no move is left.
    blocked = GameState("little-milligan", ((0, 1), (41,)) + ((),) * 6, (-1,) * 4)
    assert view(blocked).outcome == "stuck"
    # On 3d it does, which frees the Ac.
    free = GameState("little-milligan", ((0, 1), (15,)) + ((),) * 6, (-1,) * 4)
    assert view(free).outcome == "playing"


def test_view_is_a_frozen_value() -> None:
    seen = view(new_game("little-forty", SEED))
    assert isinstance(seen, View)
    assert seen == view(new_game("little-forty", SEED))
    with pytest.raises(FrozenInstanceError):
        seen.stock = 0  # type: ignore[misc]


def plain_view(state: GameState) -> View:
    rules = find_variant(state.variant)
    allowed = rules.passes
    return View(
        variant=state.variant,
        tableau=tuple(texts(pile) for pile in state.tableau),
        foundations=tuple(None if top == EMPTY else format_card(top) for top in state.foundations),
        stock=len(state.stock),
        waste=texts(state.waste),
        reserve=format_card(state.reserve[-1]) if state.reserve else None,
        reserve_hidden=max(0, len(state.reserve) - 1),
        passes_left=None if allowed is None else max(0, allowed - state.passes),
        base_rank=state.base_rank,
        outcome=plain_outcome(state).value,
        progress=plain_progress(state),
        total=rules.total,
    )


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_every_field_of_many_positions(variant: str) -> None:
    states = walked(variant, games=2, seed=7)
    states += blocked(dealt_again(states, seed=8), seed=9)
    outcomes = set()
    for state in states:
        assert view(state) == plain_view(state), state
        outcomes.add(view(state).outcome)
    assert outcomes >= {"playing", "stuck"}
