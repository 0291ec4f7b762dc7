"""Cards as small integers.

A card is an ``int`` from 0 to 51: ``suit * 13 + (rank - 1)`` with suits in the
canonical order clubs, diamonds, hearts, spades and ranks 1 (Ace) to 13 (King).
The two copies of a card in a two-deck game are the same integer: they are
interchangeable everywhere in play.

Text form: rank letter then suit letter, e.g. ``"As"``, ``"Td"``, ``"Kh"``, ``"7c"``.
"""

from engine.errors import InvalidMove

SUITS = "cdhs"
RANKS = "A23456789TJQK"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, KING = 1, 13
CARDS_PER_DECK = 52


def make(suit: int, rank: int) -> int:
    """The card of ``suit`` (0-3) and ``rank`` (1-13)."""
    return suit * 13 + rank - 1


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13 + 1


def is_red(card: int) -> bool:
    return card // 13 in (DIAMONDS, HEARTS)


def format_card(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(text: str) -> int:
    """Parse ``"Qh"``-style text (case-insensitive, ``10`` accepted for ``T``)."""
    t = text.strip()
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2:
        raise InvalidMove(f"not a card: {text!r}")
    rank = RANKS.find(t[0].upper())
    suit = SUITS.find(t[1].lower())
    if rank < 0 or suit < 0:
        raise InvalidMove(f"not a card: {text!r}")
    return suit * 13 + rank
