"""Little Forty: two decks, ten piles of four, build down by rank in any suit,
draw three, three passes through the stock."""

from engine.rules import Rules

RULES = Rules(
    key="little-forty",
    name="Little Forty",
    decks=2,
    piles=10,
    dealt_per_pile=4,
    foundation_suits=(None,) * 8,
    foundation_down=(False,) * 8,
    build="rank",
    empty_pile="any",
    stock="draw",
    draw=3,
    recycles=2,
)
