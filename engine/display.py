"""What a player may see of a game: face-down cards appear only as counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from engine import _foundation
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
    rules = find_variant(state.variant)
    allowed = rules.passes
    wanted, progress = _foundation.standing(rules, state)
    reserve = state.reserve
    return View(  # by position, in field order: keywords cost more on this hot path
        state.variant,
        _pile_texts(state.tableau),
        _top_texts(state.foundations),
        len(state.stock),
        _texts(state.waste),
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
_SEEN: dict[tuple[int, ...], tuple[str, ...]] = {}
_TOPS_SEEN: dict[tuple[int, ...], tuple[str | None, ...]] = {}
_SEEN_MAX = 1 << 16
_TOPS_SEEN_MAX = 1 << 13


def _top_texts(foundations: tuple[int, ...]) -> tuple[str | None, ...]:
    """Each foundation's top as text, ``None`` when it is empty; most moves leave
    the foundations as they were, so recent ones are remembered like piles."""
    texts = _TOPS_SEEN.get(foundations)
    if texts is None:
        if len(_TOPS_SEEN) >= _TOPS_SEEN_MAX:
            _TOPS_SEEN.clear()
        texts = _TOPS_SEEN[foundations] = tuple(map(_TOP_TEXT.__getitem__, foundations))
    return texts


def _pile_texts(piles: tuple[tuple[int, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """Each pile as text: those the table holds found in one pass, the others added."""
    texts = list(map(_SEEN.get, piles))
    while None in texts:
        at = texts.index(None)
        texts[at] = _remembered(piles[at])
    return cast(tuple[tuple[str, ...], ...], tuple(texts))


def _texts(pile: tuple[int, ...]) -> tuple[str, ...]:
    """A pile as text. Most piles are unchanged from one move to the next, so the
    texts of recent piles are remembered (a bounded table, emptied when full)."""
    texts = _SEEN.get(pile)
    return _remembered(pile) if texts is None else texts


def _remembered(pile: tuple[int, ...]) -> tuple[str, ...]:
    """The texts of a pile the table lacks, now added to it."""
    if len(_SEEN) >= _SEEN_MAX:
        _SEEN.clear()
    texts = _SEEN[pile] = tuple(map(_TEXT.__getitem__, pile))
    return texts
