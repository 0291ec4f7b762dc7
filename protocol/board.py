"""What one player may see of one game, on the wire (mirrors `engine.View`).

A board sent to spectators during a race may hold `HIDDEN_CARD` (``"??"``)
where a card is that some player still racing has not yet seen in their own
game (see docs/spectators.md). A player's own board
never holds it. It stands for one card, so every count stays true.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from engine import View
from protocol import limits
from protocol._types import BoardCard, Count, GameOutcome, Model, Progress, VariantKey

Pile = Annotated[tuple[BoardCard, ...], Field(max_length=limits.MAX_CARDS)]


class BoardView(Model):
    """Face-down cards appear only as counts (``stock``, ``reserve_hidden``);
    cards a spectator may not see yet appear as `HIDDEN_CARD`."""

    variant: VariantKey
    tableau: Annotated[tuple[Pile, ...], Field(max_length=limits.MAX_PILES)]
    """Each pile bottom to top, cards as text (``"Qh"``)."""
    foundations: Annotated[tuple[BoardCard | None, ...], Field(max_length=limits.MAX_FOUNDATIONS)]
    """Top card of each foundation, ``None`` when empty."""
    stock: Annotated[int, Field(ge=0, le=limits.MAX_CARDS)]
    waste: Pile
    """Bottom to top; only the last card plays."""
    reserve: BoardCard | None
    reserve_hidden: Annotated[int, Field(ge=0, le=limits.MAX_CARDS)]
    passes_left: Count | None
    """Turn-overs or redeals still allowed; ``None`` when unlimited."""
    base_rank: Annotated[int, Field(ge=1, le=13)]
    outcome: GameOutcome
    progress: Progress
    total: Annotated[int, Field(ge=1, le=limits.MAX_CARDS)]

    @classmethod
    def from_engine(cls, view: View) -> BoardView:
        return cls(
            variant=view.variant,
            tableau=view.tableau,
            foundations=view.foundations,
            stock=view.stock,
            waste=view.waste,
            reserve=view.reserve,
            reserve_hidden=view.reserve_hidden,
            passes_left=view.passes_left,
            base_rank=view.base_rank,
            outcome=view.outcome,  # type: ignore[arg-type]
            progress=view.progress,
            total=view.total,
        )

    def to_view(self) -> View:
        """The engine's `View` of this board; ``engine.game_from_view`` of it
        lists the moves the board allows (see docs/protocol.md)."""
        return View(
            variant=self.variant,
            tableau=self.tableau,
            foundations=self.foundations,
            stock=self.stock,
            waste=self.waste,
            reserve=self.reserve,
            reserve_hidden=self.reserve_hidden,
            passes_left=self.passes_left,
            base_rank=self.base_rank,
            outcome=self.outcome,
            progress=self.progress,
            total=self.total,
        )
