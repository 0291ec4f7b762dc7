"""A bounded table of answers, each worked out from its key the first time it is asked.

The engine's per-move work meets the same piles, foundations and move texts again and
again; `table[key]` finds a remembered answer at the cost of a dict lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Remembered(dict[K, V]):
    """``table[key]``: ``make(key)``, worked out once and remembered; the table is
    emptied when it holds ``most`` answers, so it never grows past that. A key whose
    ``make`` raises is not remembered."""

    def __init__(self, make: Callable[[K], V], most: int) -> None:
        super().__init__()
        self.make, self.most = make, most

    def __missing__(self, key: K) -> V:
        if len(self) >= self.most:
            self.clear()
        value = self[key] = self.make(key)
        return value
