"""Little Milligan: one deck, eight piles of one, build down in alternating
colour, Kings into empty piles, the stock deals a row onto the piles."""

from engine.rules import Rules

RULES = Rules(
    key="little-milligan",
    name="Little Milligan",
    decks=1,
    piles=8,
    dealt_per_pile=1,
    foundation_suits=(None,) * 4,
    foundation_down=(False,) * 4,
    build="alternate",
    empty_pile="king",
    stock="deal",
)
