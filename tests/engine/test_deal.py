"""The deal recipe: the documented worked example, determinism, independence
of labels, unbiased integers, and where each variant's cards go."""

from collections import Counter
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

from engine import VARIANT_KEYS, EngineError, UnknownVariant, find_variant, new_game
from engine.cards import format_card
from engine.deal import DEAL_ALGO_VERSION, below, block, permutation, shuffled_cards, words

DOC = Path(__file__).parents[2] / "docs" / "deals.md"
SEED = b"solrace"
BLOCK_0 = "bab61c1e495bead601e5c4254fb6fd1d641ef9c5bcc6c8b7169fffd636429946"
FIRST_WORDS = [
    3132496926,
    1230760662,
    31835173,
    1337392413,
    1679751621,
    3167144119,
    379584470,
    910334278,
    2120585359,
    789150792,
]
FIRST_SWAPS = [(103, 78), (102, 66), (101, 55), (100, 4), (99, 21)]
FIRST_CARDS = ["2s", "Ac", "As", "8h", "7c", "Qh", "Qs", "7d", "9c", "9c", "8h", "Jc"]


def test_version_is_one() -> None:
    assert DEAL_ALGO_VERSION == 1


def test_block_matches_the_worked_example() -> None:
    assert block(SEED, "little-forty", "deal/0", 0).hex() == BLOCK_0
    assert BLOCK_0 in DOC.read_text()


def test_words_run_on_across_blocks() -> None:
    assert list(islice(words(SEED, "little-forty", "deal/0"), 10)) == FIRST_WORDS


def test_shuffle_draws_match_the_worked_example() -> None:
    stream = words(SEED, "little-forty", "deal/0")
    draws = [(i, below(stream, i + 1)) for i in range(103, 98, -1)]
    assert draws == FIRST_SWAPS
    text = DOC.read_text()
    for i, j in FIRST_SWAPS:
        assert f"| {i} | {i + 1} |" in text and f"| {j} |" in text


def test_dealing_sequence_matches_the_worked_example() -> None:
    perm = permutation(SEED, "little-forty", "deal/0", 104)
    assert perm[:12] == [40, 0, 39, 85, 58, 37, 102, 19, 8, 60, 33, 62]
    cards = shuffled_cards(SEED, "little-forty", "deal/0", 2)
    assert [format_card(card) for card in cards[:12]] == FIRST_CARDS
    state = new_game("little-forty", SEED)
    assert [format_card(card) for card in state.tableau[0]] == FIRST_CARDS[:4]


def test_permutation_holds_every_slot_once() -> None:
    for n in (1, 2, 52, 104):
        assert sorted(permutation(SEED, "little-billie", "deal/1", n)) == list(range(n))


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_same_seed_same_deal(variant: str) -> None:
    assert new_game(variant, b"race 42") == new_game(variant, b"race 42")
    assert new_game(variant, b"race 42") != new_game(variant, b"race 43")


def test_labels_variants_and_seeds_pick_different_streams() -> None:
    first = [
        next(words(SEED, "little-forty", "deal/0")),
        next(words(SEED, "little-forty", "deal/1")),
        next(words(SEED, "little-billie", "deal/0")),
        next(words(b"solrace!", "little-forty", "deal/0")),
    ]
    assert len(set(first)) == len(first)


def test_a_label_stream_does_not_depend_on_other_labels_use() -> None:
    before = permutation(SEED, "little-billie", "deal/2", 104)
    permutation(SEED, "little-billie", "deal/1", 104)
    assert permutation(SEED, "little-billie", "deal/2", 104) == before


def test_below_rejects_words_past_the_last_whole_multiple() -> None:
    # 2**32 % 3 == 1, so only the word 2**32 - 1 is thrown away.
    stream: Iterator[int] = iter([2**32 - 1, 2**32 - 2, 7])
    assert below(stream, 3) == (2**32 - 2) % 3
    assert next(stream) == 7


def test_below_keeps_words_under_the_limit() -> None:
    assert below(iter([2**32 - 49]), 104) == (2**32 - 49) % 104
    stream = iter([2**32 - 48, 5])
    assert below(stream, 104) == 5


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError):
        below(iter([1]), 0)


@pytest.mark.parametrize("n", [1, 2, 7, 52, 104])
def test_below_stays_in_range_and_covers_it_evenly(n: int) -> None:
    stream = words(SEED, "little-forty", f"test/{n}")
    draws = Counter(below(stream, n) for _ in range(200 * n))
    assert set(draws) == set(range(n))
    assert max(draws.values()) < 2 * min(draws.values()) + 30


def test_every_slot_reaches_every_position_evenly() -> None:
    """Over many seeds, card Ac (slot 0) of a one-deck deal lands anywhere."""
    landed = Counter(
        permutation(b"s%d" % i, "little-milligan", "deal/0", 52).index(0) for i in range(2600)
    )
    assert set(landed) == set(range(52))
    assert max(landed.values()) < 100


def test_little_forty_layout() -> None:
    cards = shuffled_cards(SEED, "little-forty", "deal/0", 2)
    state = new_game("little-forty", SEED)
    assert state.tableau == tuple(tuple(cards[4 * i : 4 * i + 4]) for i in range(10))
    assert state.stock == tuple(reversed(cards[40:]))
    assert state.stock[-1] == cards[40]
    assert (state.waste, state.reserve, state.passes, state.base_rank) == ((), (), 0, 1)
    assert state.seed == b""


def test_little_milligan_layout() -> None:
    cards = shuffled_cards(SEED, "little-milligan", "deal/0", 1)
    state = new_game("little-milligan", SEED)
    assert state.tableau == tuple((card,) for card in cards[:8])
    assert state.stock == tuple(reversed(cards[8:]))
    assert len(state.stock) == 44
    assert state.foundations == (-1,) * 4


def test_little_billie_layout_keeps_the_seed() -> None:
    cards = shuffled_cards(SEED, "little-billie", "deal/0", 2)
    state = new_game("little-billie", SEED)
    assert state.tableau == tuple(tuple(cards[4 * i : 4 * i + 4]) for i in range(26))
    assert state.stock == ()
    assert state.seed == SEED


def test_double_canfield_layout() -> None:
    cards = shuffled_cards(SEED, "double-canfield-40", "deal/0", 2)
    state = new_game("double-canfield-40", SEED)
    assert state.foundations == (cards[0],) + (-1,) * 7
    assert state.base_rank == cards[0] % 13 + 1
    assert state.tableau == tuple((card,) for card in cards[1:7])
    assert state.reserve == tuple(cards[7:47])
    assert state.reserve[-1] == cards[46]
    assert state.stock == tuple(reversed(cards[47:]))
    assert len(state.stock) == 57


def test_base_rank_varies_between_deals() -> None:
    ranks = {new_game("double-canfield-40", b"%d" % i).base_rank for i in range(200)}
    assert ranks == set(range(1, 14))


@pytest.mark.parametrize("seed", [b"", bytes(65)])
def test_seed_must_be_1_to_64_bytes(seed: bytes) -> None:
    with pytest.raises(EngineError):
        new_game("little-forty", seed)
    new_game("little-forty", bytes(64))


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariant):
        new_game("big-forty", SEED)
    with pytest.raises(UnknownVariant):
        find_variant("Little-Forty")
