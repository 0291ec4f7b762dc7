"""What a player may see of a game: face-down cards appear only as counts."""

from __future__ import annotations

from dataclasses import dataclass

from engine import _foundation
from engine._table import Remembered
from engine.cards import format_card
from engine.state import EMPTY, GameState
from engine.status import Outcome, judge
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
    rules = find_variant(state.variant, state.option)
    allowed = rules.passes
    wanted, progress = _foundation.standing(rules, state)
    reserve = state.reserve
    return View(  # by position, in field order: keywords cost more on this hot path
        state.variant,
        tuple(map(_SEEN.__getitem__, state.tableau)),
        _TOPS_SEEN[state.foundations],
        len(state.stock),
        _SEEN[state.waste],
        _TEXT[reserve[-1]] if reserve else None,
        len(reserve) - 1 if reserve else 0,  # reserve_hidden
        None if allowed is None else max(0, allowed - state.passes),
        state.base_rank,
        _OUTCOME_TEXT[judge(rules, state, wanted)],
        progress,
        rules.total,
    )


_OUTCOME_TEXT = {outcome: outcome.value for outcome in Outcome}
_TEXT = tuple(format_card(card) for card in range(52))
_TOP_TEXT: dict[int, str | None] = {EMPTY: None, **dict(enumerate(_TEXT))}
"""A foundation's top as text; ``None`` when it is empty."""
_SEEN: Remembered[tuple[int, ...], tuple[str, ...]] = Remembered(
    lambda pile: tuple(map(_TEXT.__getitem__, pile)), 1 << 16
)
"""Recent piles as text: most piles are unchanged from one move to the next."""
_TOPS_SEEN: Remembered[tuple[int, ...], tuple[str | None, ...]] = Remembered(
    lambda foundations: tuple(map(_TOP_TEXT.__getitem__, foundations)), 1 << 13
)
"""Recent foundations' tops as text; most moves leave the foundations as they were."""
