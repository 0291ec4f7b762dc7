"""What a player may see of a game: face-down cards appear only as counts."""

from __future__ import annotations

from dataclasses import dataclass

from engine import _foundation
from engine.cards import format_card
from engine.state import EMPTY, GameState
from engine.status import outcome
from engine.variants import find_variant


@dataclass(frozen=True, slots=True)
class View:
    variant: str
    tableau: tuple[tuple[str, ...], ...]
    """Each pile bottom to top, cards as text."""
    foundations: tuple[str | None, ...]
    """Top card of each foundation."""
    stock: int
    """Face-down stock cards."""
    waste: tuple[str, ...]
    reserve: str | None
    """Face-up top of the reserve."""
    reserve_hidden: int
    """Face-down reserve cards under the top."""
    passes_left: int | None
    """Turn-overs or redeals still allowed; ``None`` when unlimited."""
    base_rank: int
    outcome: str
    progress: int
    total: int


def view(state: GameState) -> View:
    """The player's view of ``state``; safe to send to anyone."""
    rules = find_variant(state.variant)
    allowed = rules.passes
    return View(
        variant=state.variant,
        tableau=tuple(map(_texts, state.tableau)),
        foundations=tuple(None if top == EMPTY else _TEXT[top] for top in state.foundations),
        stock=len(state.stock),
        waste=_texts(state.waste),
        reserve=_TEXT[state.reserve[-1]] if state.reserve else None,
        reserve_hidden=max(0, len(state.reserve) - 1),
        passes_left=None if allowed is None else max(0, allowed - state.passes),
        base_rank=state.base_rank,
        outcome=outcome(state).value,
        progress=_foundation.progress(rules, state),
        total=rules.total,
    )


_TEXT = tuple(format_card(card) for card in range(52))
_SEEN: dict[tuple[int, ...], tuple[str, ...]] = {}
_SEEN_MAX = 1 << 16


def _texts(pile: tuple[int, ...]) -> tuple[str, ...]:
    """A pile as text. Most piles are unchanged from one move to the next, so the
    texts of recent piles are remembered (a bounded table, emptied when full)."""
    texts = _SEEN.get(pile)
    if texts is None:
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        texts = _SEEN[pile] = tuple(map(_TEXT.__getitem__, pile))
    return texts
