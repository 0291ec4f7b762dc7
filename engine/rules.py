"""What a variant is, as data: one frozen `Rules` value per variant.

The engine reads these fields and nothing else about a variant, so a variant
module is a single constructor call (see `engine.variants`).

Foundations: foundation ``i`` takes cards of suit ``foundation_suits[i]``
(``None``: any suit may start it, and the first card fixes it) and runs
thirteen ranks in its direction, wrapping King to Ace where it must. An up
foundation starts at the game's base rank, a down one at the rank below it
(King when the base is Ace). The base rank is Ace unless ``base_from_deal``
puts the first card dealt on foundation 1 and makes its rank the base.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.cards import ACE, CARDS_PER_DECK, KING, is_red

Build = Literal["rank", "alternate"]
"""Tableau building: down by rank in any suit, or down in alternating colour."""
EmptyPile = Literal["any", "king", "none"]
"""What an empty tableau pile takes: any card or run, a King-headed one, nothing."""
StockUse = Literal["draw", "deal", "none"]
"""The stock turns cards onto a waste, deals a row onto the tableau, or is absent."""


@dataclass(frozen=True, slots=True)
class Rules:
    key: str
    """Stable key, never renamed."""
    name: str
    decks: int
    piles: int
    """Tableau piles (columns, fans)."""
    dealt_per_pile: int
    """Cards each pile gets in the deal; also Little Billie's redeal fan size."""
    foundation_suits: tuple[int | None, ...]
    foundation_down: tuple[bool, ...]
    build: Build | None
    """``None``: nothing is ever built on the tableau; its cards only go home."""
    empty_pile: EmptyPile = "any"
    wrap: bool = False
    """A King may be built on an Ace in the tableau."""
    reserve: int = 0
    """Cards dealt to the reserve, whose top alone is face up."""
    base_from_deal: bool = False
    stock: StockUse = "none"
    draw: int = 3
    """Cards a draw turns onto the waste."""
    recycles: int | None = 0
    """Waste turn-overs allowed; ``None`` for no limit."""
    redeals: int | None = 0
    """Gather-and-redeal of the tableau allowed (Little Billie); ``None`` for no
    limit until blocked: a redeal after which no fan's top card fits any
    foundation ends the game (`engine._stock.blocked_by_redeal`)."""
    option: str = ""
    """Which rule option of the variant these rules are: ``""`` for the rules as
    docs/rules.md rules them, else a stable name from the variant's module
    (`engine.variants.VARIANT_OPTIONS`). The key, and so every seeded shuffle,
    is the variant's own."""
    stacks: bytes = field(init=False, repr=False, compare=False)
    """``stacks[lower * 52 + upper]`` is 1 when ``upper`` may lie on ``lower``."""
    takers: tuple[frozenset[int], ...] = field(init=False, repr=False, compare=False)
    """``takers[lower]``: every card that may lie on ``lower``."""
    kinds: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """``kinds[card]``: the card's rank, and its colour where building alternates.
    Cards of one kind lie on the same cards."""
    wants: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """``wants[lower]``: the kind of every card that may lie on ``lower``; -1 when none may."""

    def __post_init__(self) -> None:
        stacks = _stack_table(self.build, self.wrap)
        object.__setattr__(self, "stacks", stacks)
        takers = tuple(
            frozenset(up for up in range(CARDS_PER_DECK) if stacks[low * CARDS_PER_DECK + up])
            for low in range(CARDS_PER_DECK)
        )
        object.__setattr__(self, "takers", takers)
        kinds = tuple(
            card % 13 * 2 + is_red(card) if self.build == "alternate" else card % 13
            for card in range(CARDS_PER_DECK)
        )
        object.__setattr__(self, "kinds", kinds)
        wants = tuple(kinds[min(up)] if up else -1 for up in takers)
        object.__setattr__(self, "wants", wants)

    @property
    def total(self) -> int:
        """Cards in the game."""
        return self.decks * CARDS_PER_DECK

    @property
    def foundations(self) -> int:
        return len(self.foundation_suits)

    @property
    def has_redeal(self) -> bool:
        """Whether the tableau may be gathered and dealt again."""
        return self.redeals != 0

    @property
    def passes(self) -> int | None:
        """Turn-overs or redeals allowed in all (what `GameState.passes`
        counts); ``None`` for no limit."""
        return self.redeals if self.has_redeal else self.recycles

    @property
    def deals(self) -> int:
        """Most deals a game can have, the first included. Without a limit each
        redeal after the first needs a card gone home since the one before
        (right after it none fits, or the game is over), and every redeal needs
        a card left: at most ``total`` redeals."""
        return self.total + 1 if self.redeals is None else self.redeals + 1

    def start_rank(self, index: int, base_rank: int) -> int:
        """First rank of foundation ``index`` in a game whose base rank is given."""
        if self.foundation_down[index]:
            return KING if base_rank == ACE else base_rank - 1
        return base_rank


def _stack_table(build: Build | None, wrap: bool) -> bytes:
    table = bytearray(CARDS_PER_DECK * CARDS_PER_DECK)
    if build is None:
        return bytes(table)
    for lower in range(CARDS_PER_DECK):
        for upper in range(CARDS_PER_DECK):
            table[lower * CARDS_PER_DECK + upper] = _stacks(build, wrap, lower, upper)
    return bytes(table)


def _stacks(build: Build, wrap: bool, lower: int, upper: int) -> bool:
    low_rank, up_rank = lower % 13 + 1, upper % 13 + 1
    in_sequence = up_rank == low_rank - 1 or (wrap and low_rank == ACE and up_rank == KING)
    if build == "rank":
        return in_sequence
    return in_sequence and is_red(lower) != is_red(upper)
