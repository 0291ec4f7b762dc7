"""Moves and their notation, for humans and for the wire.

Piles are named by a letter and, where there are several, a 1-based number:
``t3`` is tableau pile 3 (a column in Double Canfield 40, a fan in Little
Billie), ``f2`` foundation 2, ``w`` the waste (discard pile), ``r`` the reserve.

==============  ===========================================================
``t3 t7``       move the run from pile 3 that fits on pile 7 (engine picks)
``t3:2 t7``     move exactly the top two cards of pile 3 onto pile 7
``t3 f``        top card of pile 3 to the first foundation it fits on
``t3 f5``       top card of pile 3 to foundation 5
``w t1``        waste top to pile 1 (``w f`` / ``w f2`` to a foundation)
``r t1``        reserve top to pile 1 (``r f`` to a foundation)
``draw``        turn cards from the stock onto the waste
``recycle``     turn the empty stock's waste over as a new stock
``deal``        deal one stock card onto each tableau pile (Little Milligan)
``redeal``      gather, shuffle and re-deal the fans (Little Billie)
==============  ===========================================================

``Move.parse(text).format() == text`` for every text in this canonical form;
parsing also accepts extra spaces and upper case. The notation is ASCII: any
other text, Unicode digits and spaces included, is refused with `InvalidMove`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine._table import Remembered
from engine.errors import InvalidMove

Action = Literal["move", "draw", "recycle", "deal", "redeal"]
Source = Literal["t", "w", "r"]
Target = Literal["t", "f"]

_SIMPLE: tuple[Action, ...] = ("draw", "recycle", "deal", "redeal")
MAX_INDEX = 99
"""Highest pile number the notation reads."""
MAX_COUNT = 104
"""Highest card count the notation reads (every card of two decks)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One move. Indexes are 0-based here and 1-based in the text form.

    ``count`` is the number of cards moved from a tableau pile; ``None`` lets
    the engine pick the run that fits. ``dst_index`` ``None`` on a foundation
    target means the first foundation the card fits on.
    """

    action: Action
    src: Source | None = None
    src_index: int = 0
    count: int | None = None
    dst: Target | None = None
    dst_index: int | None = None

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move ``text`` names; `InvalidMove` for any text that is not the notation.

        Players send the same few texts again and again, so the moves of recent
        texts are remembered (a bounded table, emptied when full; moves are
        immutable, so one may be handed out many times).
        """
        return _PARSED[text]

    @classmethod
    def _read(cls, text: str) -> Move:
        if not text.isascii():
            raise InvalidMove(f"cannot read move {text!r}: the notation uses plain ASCII only")
        words = text.strip().lower().split()
        if len(words) == 1 and words[0] in _SIMPLE:
            return cls(action=words[0])
        if len(words) != 2:
            raise InvalidMove(f"cannot read move {text!r}: expected e.g. 't3 t7', 'w f', 'draw'")
        src, src_index, count = _parse_source(words[0], text)
        dst, dst_index = _parse_target(words[1], text)
        return cls("move", src, src_index, count, dst, dst_index)

    def format(self) -> str:
        if self.action != "move":
            return self.action
        src = f"t{self.src_index + 1}" if self.src == "t" else str(self.src)
        if self.count is not None:
            src += f":{self.count}"
        if self.dst == "t" or self.dst_index is not None:
            dst = f"{self.dst}{(self.dst_index or 0) + 1}"
        else:
            dst = "f"
        return f"{src} {dst}"

    def __str__(self) -> str:
        return self.format()


_PARSED: Remembered[str, Move] = Remembered(Move._read, 1 << 12)


def _number(digits: str, most: int) -> int | None:
    """``digits`` as a number from 1 to ``most``, or ``None`` when they are not one."""
    if not digits.isdigit() or len(digits.lstrip("0")) > len(str(most)):
        return None
    value = int(digits)
    return value if 1 <= value <= most else None


def _parse_index(digits: str, text: str) -> int:
    value = _number(digits, MAX_INDEX)
    if value is None:
        raise InvalidMove(f"cannot read move {text!r}: bad pile number {digits!r}")
    return value - 1


def _parse_source(word: str, text: str) -> tuple[Source, int, int | None]:
    if word in ("w", "r"):
        return word, 0, None  # type: ignore[return-value]
    if not word.startswith("t"):
        raise InvalidMove(f"cannot read move {text!r}: a move starts from t<n>, w or r")
    pile, _, count_text = word[1:].partition(":")
    index = _parse_index(pile, text)
    if not _:
        return "t", index, None
    count = _number(count_text, MAX_COUNT)
    if count is None:
        raise InvalidMove(f"cannot read move {text!r}: bad card count {count_text!r}")
    return "t", index, count


def _parse_target(word: str, text: str) -> tuple[Target, int | None]:
    if word == "f":
        return "f", None
    if word[:1] not in ("t", "f"):
        raise InvalidMove(f"cannot read move {text!r}: a move goes to t<n>, f or f<n>")
    return word[0], _parse_index(word[1:], text)  # type: ignore[return-value]
