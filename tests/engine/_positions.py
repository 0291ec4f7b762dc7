"""Builders for hand-made positions, so that each rule test states only the cards it needs.

Cards are written as text (``"Tc 9h 8s"``), piles bottom to top. Piles left out
are empty; foundations left out (or given as ``""``) are empty. Positions need
not hold every card of the game: the rules under test look only at the piles.
"""

from collections.abc import Sequence

import pytest

from engine import IllegalMove, InvalidMove, Move, apply
from engine.cards import parse_card
from engine.state import EMPTY, GameState

FORTY = "little-forty"
MILLIGAN = "little-milligan"
BILLIE = "little-billie"
CANFIELD = "double-canfield-40"
BILLIE_SEED = b"billie test race"


def cards(text: str) -> tuple[int, ...]:
    """The cards of space-separated text, in the order written."""
    return tuple(parse_card(word) for word in text.split())


def card(text: str) -> int:
    return parse_card(text)


def piles(texts: Sequence[str], count: int) -> tuple[tuple[int, ...], ...]:
    """``count`` piles, the first ones from ``texts`` and the rest empty."""
    padded = [*texts, *[""] * (count - len(texts))]
    return tuple(cards(text) for text in padded)


def tops(texts: Sequence[str], count: int) -> tuple[int, ...]:
    """``count`` foundation tops; ``""`` and the ones left out are empty."""
    padded = [*texts, *[""] * (count - len(texts))]
    return tuple(parse_card(text) if text else EMPTY for text in padded)


def little_forty(
    tableau: Sequence[str] = (),
    *,
    foundations: Sequence[str] = (),
    stock: str = "",
    waste: str = "",
    passes: int = 0,
) -> GameState:
    return GameState(
        variant=FORTY,
        tableau=piles(tableau, 10),
        foundations=tops(foundations, 8),
        stock=cards(stock),
        waste=cards(waste),
        passes=passes,
    )


def little_milligan(
    tableau: Sequence[str] = (), foundations: Sequence[str] = (), stock: str = ""
) -> GameState:
    return GameState(
        variant=MILLIGAN,
        tableau=piles(tableau, 8),
        foundations=tops(foundations, 4),
        stock=cards(stock),
    )


def little_billie(
    fans: Sequence[str] = (), foundations: Sequence[str] = (), passes: int = 0
) -> GameState:
    """Foundations 1-4 go up (clubs, diamonds, hearts, spades), 5-8 down in the same order."""
    return GameState(
        variant=BILLIE,
        tableau=piles(fans, 26),
        foundations=tops(foundations, 8),
        passes=passes,
        seed=BILLIE_SEED,
    )


def double_canfield(
    columns: Sequence[str] = (),
    *,
    foundations: Sequence[str] = (),
    base_rank: int = 1,
    reserve: str = "",
    stock: str = "",
    waste: str = "",
    passes: int = 0,
) -> GameState:
    return GameState(
        variant=CANFIELD,
        tableau=piles(columns, 6),
        foundations=tops(foundations, 8),
        stock=cards(stock),
        waste=cards(waste),
        reserve=cards(reserve),
        passes=passes,
        base_rank=base_rank,
    )


def play(state: GameState, *moves: str) -> GameState:
    """The state after each move text in turn."""
    for text in moves:
        state = apply(state, Move.parse(text))
    return state


def _check_reason(error: Exception) -> str:
    reason = str(error).strip()
    assert len(reason) >= 8, f"reason too short: {reason!r}"
    assert " " in reason, f"reason is not a sentence: {reason!r}"
    assert any(ch.isalpha() for ch in reason)
    return reason


def assert_illegal(state: GameState, text: str) -> str:
    """The move is refused as not legal now, with a readable reason (returned)."""
    with pytest.raises(IllegalMove) as info:
        apply(state, Move.parse(text))
    return _check_reason(info.value)


def assert_invalid(state: GameState, text: str) -> str:
    """The move names a pile or action the variant lacks; refused as malformed."""
    with pytest.raises(InvalidMove) as info:
        apply(state, Move.parse(text))
    return _check_reason(info.value)


def assert_refused(state: GameState, text: str) -> str:
    """The move can never be made in this variant; either error class is fair."""
    with pytest.raises((IllegalMove, InvalidMove)) as info:
        apply(state, Move.parse(text))
    return _check_reason(info.value)
