"""Little Billie: two decks in 26 fans of four; only fan tops move, only home.

Foundations 1-4 go up from Ace in clubs, diamonds, hearts, spades; 5-8 go
down from King in the same suits. Two redeals of the remaining fans; the
option ``"unlimited-redeals"`` redeals without limit until blocked.
"""

from dataclasses import replace

from engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES
from engine.rules import Rules

_SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)

RULES = Rules(
    key="little-billie",
    name="Little Billie",
    decks=2,
    piles=26,
    dealt_per_pile=4,
    foundation_suits=_SUITS + _SUITS,
    foundation_down=(False,) * 4 + (True,) * 4,
    build=None,
    empty_pile="none",
    redeals=2,
)

UNLIMITED_REDEALS = replace(RULES, option="unlimited-redeals", redeals=None)
"""The room option: a redeal whenever no fan's top card fits a foundation, as
often as that happens, until a redeal leaves none fitting (docs/rules.md)."""

OPTIONS = (UNLIMITED_REDEALS,)
