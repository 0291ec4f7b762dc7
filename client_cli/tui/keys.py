"""Moves made with single keys: pick a pile up, put it down, draw, send cards home.

Pure functions of the visible board. Tableau piles answer to ``1``-``9``,
``0`` and then to the letters of `PILE_KEYS` (Little Billie has 26 fans);
``w`` and ``r`` pick up the waste and the reserve top; ``f`` or ``h`` drop
the pick on the foundations. Pressing a pile's key again picks one more card
of the run on top, as far as the run goes, then lets go.
"""

from __future__ import annotations

from dataclasses import dataclass

from client_cli.room.visible import visible_moves
from engine import Move, find_variant
from engine.cards import parse_card
from protocol import BoardView

PILE_KEYS = "1234567890bcegijklmnopstuv"
"""The key of tableau pile ``i`` is ``PILE_KEYS[i]``; letters that are commands are left out."""
STOCK_ACTIONS = ("draw", "recycle", "deal", "redeal")


@dataclass(frozen=True, slots=True)
class Pick:
    """What is in hand: the waste or reserve top, or cards from a tableau pile."""

    source: str
    """``t``, ``w`` or ``r``."""
    index: int = 0
    count: int | None = None
    """Cards taken from a tableau pile; ``None`` lets the engine take the run that fits."""

    def label(self) -> str:
        if self.source != "t":
            return self.source
        pile = f"t{self.index + 1}"
        return pile if self.count is None else f"{pile}:{self.count}"


def pile_of_key(key: str, board: BoardView) -> int | None:
    """The tableau pile a key names on this board, if any."""
    index = PILE_KEYS.find(key)
    return index if 0 <= index < len(board.tableau) else None


def pick_top(board: BoardView, source: str) -> Pick | str:
    """The waste's (``w``) or reserve's (``r``) top picked up, or why there is none."""
    rules = find_variant(board.variant)
    name = "waste" if source == "w" else "reserve"
    if not (rules.stock == "draw" if source == "w" else rules.reserve):
        return f"{rules.name} has no {name}."
    top = board.waste[-1:] if source == "w" else (board.reserve,)
    if not top or top[0] is None:
        return f"The {name} is empty."
    return Pick(source)


def pick_pile(held: Pick | None, index: int, board: BoardView) -> Pick | None:
    """The pick after pressing pile ``index``'s key with nothing in hand or the same pile."""
    if not board.tableau[index]:
        return None
    if held is None or held.source != "t" or held.index != index:
        return Pick("t", index)
    count = 2 if held.count is None else held.count + 1
    return Pick("t", index, count) if count <= run_length(board, index) else None


def run_length(board: BoardView, index: int) -> int:
    """How many cards on top of pile ``index`` form a run by the game's building rule."""
    rules = find_variant(board.variant)
    pile = [parse_card(text) for text in board.tableau[index]]
    length = min(1, len(pile))
    while length < len(pile) and rules.stacks[pile[-length - 1] * 52 + pile[-length]]:
        length += 1
    return length


def drop(held: Pick, target: str, index: int | None = None) -> Move:
    """The move putting the pick on pile ``index`` (``t``) or a foundation (``f``)."""
    count = held.count if held.source == "t" else None
    dst_index = index if target == "t" else None
    return Move("move", held.source, held.index, count, target, dst_index)  # type: ignore[arg-type]


def stock_move(board: BoardView) -> Move | None:
    """The draw, recycle, deal or redeal this board allows now, if any."""
    for move in visible_moves(board):
        if move.action in STOCK_ACTIONS:
            return move
    return None


def home_move(board: BoardView, held: Pick | None = None) -> Move | None:
    """A move sending a card home: the pick's, or with nothing in hand the first there is."""
    for move in visible_moves(board):
        if move.dst != "f":
            continue
        if held is None or (move.src == held.source and move.src_index == held.index):
            return move
    return None
