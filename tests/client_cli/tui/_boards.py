"""Boards of public deal 1, and their piles as the race screen writes them."""

from __future__ import annotations

import engine
from client_cli.tui import UNICODE
from client_cli.tui.keys import PILE_KEYS
from protocol import HIDDEN_CARD, BoardView


def deal_one(variant: str, *moves: str) -> BoardView:
    return BoardView.from_engine(engine.view(engine.replay(variant, b"deal:1", moves)))


def pile_rows(board: BoardView, keys: bool = True) -> list[str]:
    """Each tableau pile as the board shows it: name, key (a blank on a watched
    board, ``keys`` false), cards."""
    width = len(f"t{len(board.tableau)}")
    return [
        f"t{i + 1}".ljust(width)
        + f" {PILE_KEYS[i] if keys else ' '} "
        + " ".join(UNICODE.card(c).plain for c in pile)
        for i, pile in enumerate(board.tableau)
    ]


def masked_beyond(board: BoardView, seen: BoardView) -> BoardView:
    """`board` as a spectator sees it while a racer is still at `seen`: new pile cards hidden."""
    tableau = tuple(
        pile[: len(old)] + (HIDDEN_CARD,) * (len(pile) - len(old))
        for pile, old in zip(board.tableau, seen.tableau, strict=True)
    )
    return board.model_copy(update={"tableau": tableau})
