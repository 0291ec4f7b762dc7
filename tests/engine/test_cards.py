"""Card helpers: the integer encoding every pile, foundation and message relies on."""

import pytest

from engine.cards import (
    ACE,
    CARDS_PER_DECK,
    CLUBS,
    DIAMONDS,
    HEARTS,
    KING,
    RANKS,
    SPADES,
    SUITS,
    format_card,
    is_red,
    make,
    parse_card,
    rank_of,
    suit_of,
)
from engine.errors import InvalidMove

ALL_CARDS = range(CARDS_PER_DECK)


def test_suits_are_in_canonical_order() -> None:
    assert (CLUBS, DIAMONDS, HEARTS, SPADES) == (0, 1, 2, 3)
    assert SUITS == "cdhs"


def test_ranks_run_from_ace_to_king() -> None:
    assert (ACE, KING) == (1, 13)
    assert RANKS == "A23456789TJQK"
    assert CARDS_PER_DECK == 52


def test_make_numbers_cards_by_suit_then_rank() -> None:
    assert make(CLUBS, ACE) == 0
    assert make(CLUBS, KING) == 12
    assert make(DIAMONDS, ACE) == 13
    assert make(SPADES, KING) == 51


def test_every_card_number_is_made_once() -> None:
    made = [make(suit, rank) for suit in range(4) for rank in range(ACE, KING + 1)]
    assert made == list(ALL_CARDS)


@pytest.mark.parametrize("card", ALL_CARDS)
def test_suit_and_rank_recover_make(card: int) -> None:
    assert make(suit_of(card), rank_of(card)) == card
    assert ACE <= rank_of(card) <= KING


def test_hearts_and_diamonds_are_red_clubs_and_spades_black() -> None:
    assert is_red(make(DIAMONDS, 7))
    assert is_red(make(HEARTS, KING))
    assert not is_red(make(CLUBS, ACE))
    assert not is_red(make(SPADES, 10))


def test_half_of_the_deck_is_red() -> None:
    assert sum(is_red(card) for card in ALL_CARDS) == 26


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [("As", SPADES, ACE), ("Td", DIAMONDS, 10), ("Kh", HEARTS, KING), ("7c", CLUBS, 7)],
)
def test_format_card_writes_rank_then_suit(text: str, suit: int, rank: int) -> None:
    assert format_card(make(suit, rank)) == text
    assert parse_card(text) == make(suit, rank)


@pytest.mark.parametrize("card", ALL_CARDS)
def test_parse_card_reads_what_format_card_writes(card: int) -> None:
    assert parse_card(format_card(card)) == card


@pytest.mark.parametrize(("text", "expected"), [("qH", "Qh"), ("ks", "Ks"), (" 9d ", "9d")])
def test_parse_card_ignores_case_and_surrounding_space(text: str, expected: str) -> None:
    assert format_card(parse_card(text)) == expected


def test_parse_card_accepts_ten_written_as_10() -> None:
    assert parse_card("10h") == parse_card("Th") == make(HEARTS, 10)


@pytest.mark.parametrize("text", ["", "A", "Ax", "1h", "0s", "Kss", "11c", "hK", "10", "?"])
def test_parse_card_rejects_what_is_not_a_card(text: str) -> None:
    with pytest.raises(InvalidMove) as info:
        parse_card(text)
    assert "card" in str(info.value)
