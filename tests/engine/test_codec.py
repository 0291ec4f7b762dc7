"""The storage form: exact round trips, small sizes, and refusal of bad bytes."""

from dataclasses import replace

import pytest

from engine import (
    VARIANT_KEYS,
    EngineError,
    GameState,
    apply,
    from_bytes,
    legal_moves,
    new_game,
    to_bytes,
)
from engine.codec import FORMAT
from tests.engine._mixed import blocked, dealt_again, walked

SEED = b"codec race"


def played(variant: str, moves: int = 60) -> list[GameState]:
    """States of a fixed line of play: the last legal move each time."""
    state = new_game(variant, SEED)
    states = [state]
    for _ in range(moves):
        legal = legal_moves(state)
        if not legal:
            break
        state = apply(state, legal[len(states) % len(legal)])
        states.append(state)
    return states


def plain_bytes(state: GameState) -> bytes:
    """The layout of format 1, written out field by field."""
    out = [FORMAT, VARIANT_KEYS.index(state.variant), state.base_rank]
    passes = state.passes
    while passes >= 128:
        out.append(passes % 128 + 128)
        passes //= 128
    out.append(passes)
    out += [255 if top == -1 else top for top in state.foundations]
    for pile in (*state.tableau, state.stock, state.waste, state.reserve):
        out += [*pile[:-1], pile[-1] + 128] if pile else [64]
    out += [len(state.seed), *state.seed]
    return bytes(out)


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_the_layout_of_many_positions(variant: str) -> None:
    states = walked(variant, games=2, seed=10)
    states += blocked(dealt_again(states, seed=11), seed=12)
    for state in states:
        assert to_bytes(state) == plain_bytes(state), state
    for passes in (127, 128, 300_000):
        state = states[0].evolve(passes=passes)
        assert to_bytes(state) == plain_bytes(state)


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_round_trip_along_a_game(variant: str) -> None:
    for state in played(variant):
        assert from_bytes(to_bytes(state)) == state


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_two_deck_states_stay_under_200_bytes(variant: str) -> None:
    sizes = [len(to_bytes(state)) for state in played(variant)]
    assert max(sizes) < 200


def test_longest_seed_still_fits() -> None:
    state = new_game("little-billie", bytes(range(64)))
    data = to_bytes(state)
    assert len(data) < 200
    assert from_bytes(data).seed == bytes(range(64))


def test_only_billie_stores_its_seed() -> None:
    assert new_game("little-forty", SEED).seed == b""
    assert SEED not in to_bytes(new_game("little-forty", SEED))
    assert SEED in to_bytes(new_game("little-billie", SEED))


def test_unlimited_pass_counts_round_trip() -> None:
    state = new_game("double-canfield-40", SEED).evolve(passes=300_000)
    assert from_bytes(to_bytes(state)) == state


def test_empty_piles_and_foundations_round_trip() -> None:
    state = GameState(
        variant="little-forty",
        tableau=((),) * 9 + ((51,),),
        foundations=(12, 25, 38, 51, 12, 25, 38, -1),
        waste=(50,),
        passes=2,
    )
    assert from_bytes(to_bytes(state)) == state


def test_format_starts_with_its_version() -> None:
    assert to_bytes(new_game("little-milligan", SEED))[0] == FORMAT == 1


def good() -> bytes:
    return to_bytes(played("little-forty", 20)[-1])


def refused(data: bytes) -> None:
    with pytest.raises(EngineError):
        from_bytes(data)


def test_every_truncation_is_refused() -> None:
    data = good()
    for end in range(len(data)):
        refused(data[:end])


def test_trailing_bytes_are_refused() -> None:
    refused(good() + b"\x00")


def test_unknown_format_and_variant_are_refused() -> None:
    data = good()
    refused(bytes([2]) + data[1:])
    refused(data[:1] + bytes([len(VARIANT_KEYS)]) + data[2:])


def test_a_byte_that_is_not_a_card_is_refused() -> None:
    state = new_game("little-milligan", SEED)
    data = bytearray(to_bytes(state))
    at = data.index(state.tableau[0][0] | 0x80)
    data[at] = 60 | 0x80
    refused(bytes(data))


def test_a_card_once_too_often_is_refused() -> None:
    state = new_game("little-milligan", SEED)
    extra = state.evolve(waste=(state.stock[0],))
    refused(to_bytes(extra))


def test_foundation_of_the_wrong_suit_is_refused() -> None:
    state = new_game("little-billie", SEED)
    wrong = state.evolve(tableau=((),) * 26, foundations=(13, -1, -1, -1, -1, -1, -1, -1))
    refused(to_bytes(wrong))


def test_impossible_header_values_are_refused() -> None:
    forty = new_game("little-forty", SEED)
    refused(to_bytes(replace(forty, passes=3)))
    refused(to_bytes(replace(forty, base_rank=5)))
    refused(to_bytes(replace(new_game("double-canfield-40", SEED), base_rank=14)))
    refused(to_bytes(replace(new_game("little-billie", SEED), seed=bytes(65))))


def test_an_overlong_pass_count_is_refused() -> None:
    data = good()
    refused(data[:3] + b"\xff" * 6 + data[4:])
