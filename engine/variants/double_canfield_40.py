"""Double Canfield 40: two decks; the first card dealt sets the foundations'
base rank; six columns build down in alternating colour with wrap; a
40-card reserve; draw three with unlimited passes."""

from engine.rules import Rules

RULES = Rules(
    key="double-canfield-40",
    name="Double Canfield 40",
    decks=2,
    piles=6,
    dealt_per_pile=1,
    foundation_suits=(None,) * 8,
    foundation_down=(False,) * 8,
    build="alternate",
    empty_pile="any",
    wrap=True,
    reserve=40,
    base_from_deal=True,
    stock="draw",
    draw=3,
    recycles=None,
)
