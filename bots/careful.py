"""How the careful strategy ranks moves: greedy's moves, plus moves that only
rearrange face-up cards when a look-ahead of two moves shows they lead on.

Classes, best first: a card home; a move that shows a card or empties a pile
(off the reserve, a whole tableau pile onto another, a move that frees a card
which can then go home); a rearranging move after which one more rearranging
move frees a card for home or empties a pile; a waste card built onto a pile
(showing the waste card below); a run moved off a card it does not build on
onto another pile (joining two sequences); then a stock action. A run moved
between equivalent places (off a card it builds on) is played only when the
look-ahead shows it leads on, and no rearranging move ever leads back to a
board already played from.

The look-ahead plays moves forward only from the tableau and the waste, whose
cards are all face up, so it never reads a placeholder for a hidden card.

Why it always ends: call a move *rearranging* when it goes onto a tableau
pile from the tableau or the waste; it keeps the board's *progress key*
(foundations, stock, reserve, passes). A rearranging move is played only
onto a board never played from, and only while fewer than `SHUFFLE_LIMIT`
boards of the current key have been played from; so at most
`SHUFFLE_LIMIT` + 1 rearranging moves are ever played under one key. Every
other move changes the key: cards home and reserve cards shown only grow,
and stock actions are never repeated from one board (the caller's rule),
so the keys a game passes through are finite, and so are its moves.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import GameState, Move, apply, find_variant, legal_moves, view, wanted_cards
from engine.cards import CARDS_PER_DECK
from engine.display import View
from protocol import BoardView

HOME, SHOWS, SETS_UP, FROM_WASTE, JOINS, STOCK = 0, 1, 2, 3, 4, 5
SHUFFLE_LIMIT = 24
"""Most boards of one progress key a bot plays rearranging moves from."""

BoardKey = tuple[object, ...]
Shown = View | BoardView
"""A board as the engine or the wire shows it: the fields read here are alike."""


def board_key(shown: Shown) -> BoardKey:
    """Everything a player sees that moves change."""
    return (
        shown.tableau,
        shown.foundations,
        shown.stock,
        shown.waste,
        shown.reserve,
        shown.reserve_hidden,
        shown.passes_left,
    )


def progress_key(shown: Shown) -> BoardKey:
    """What only progress changes: a rearranging move keeps it (or shrinks the waste)."""
    return (shown.foundations, shown.stock, shown.reserve, shown.reserve_hidden, shown.passes_left)


def may_rearrange(shown: Shown, played: Iterable[Shown]) -> bool:
    """Whether fewer than `SHUFFLE_LIMIT` boards of this progress key were played from."""
    key = progress_key(shown)
    return sum(1 for seen in played if progress_key(seen) == key) < SHUFFLE_LIMIT


def careful_class(game: GameState, move: Move, seen: set[BoardKey], rearrange: bool) -> int | None:
    """The class of ``move`` (see the module text); ``None`` for a move not to play."""
    if move.action != "move":
        return STOCK
    if move.dst == "f":
        return HOME
    if move.src == "r":
        return SHOWS
    if not rearrange:
        return None
    after = apply(game, move)
    if board_key(view(after)) in seen:
        return None
    return _rearranging_class(game, move, after)


def _rearranging_class(game: GameState, move: Move, after: GameState) -> int | None:
    wanted = wanted_cards(game)
    before = _home_ready(game, wanted)
    if _empties(game, move) or _home_ready(after, wanted) - before:
        return SHOWS
    if any(_opens(after, step, wanted, before) for step in _rearranging(after)):
        return SETS_UP
    if move.src == "w":
        return FROM_WASTE
    if _joins(game, move):
        return JOINS
    return None


def _joins(game: GameState, move: Move) -> bool:
    """A run moves off a card it does not build on, onto a pile that holds cards:
    one break in the tableau's sequences fewer."""
    pile, count = game.tableau[move.src_index], move.count or 1
    if move.src != "t" or not game.tableau[move.dst_index or 0] or count >= len(pile):
        return False
    return not find_variant(game.variant).stacks[pile[-count - 1] * CARDS_PER_DECK + pile[-count]]


def _opens(after: GameState, step: Move, wanted: set[int], before: set[int]) -> bool:
    """Whether ``step`` empties a pile or uncovers a card a foundation takes.

    Only the card under what ``step`` moves can become newly ready: the moved
    card itself was already a top after the first move, and no first move that
    readied a card reaches this look-ahead.
    """
    if _empties(after, step):
        return True
    pile, count = (after.waste, 1) if step.src == "w" else (after.tableau[step.src_index], 0)
    count = count or step.count or 1
    if len(pile) <= count:
        return False
    card = pile[-count - 1]
    return card in wanted and card not in before


def _rearranging(game: GameState) -> list[Move]:
    return [
        move
        for move in legal_moves(game)
        if move.action == "move" and move.src in ("t", "w") and move.dst == "t"
    ]


def _empties(game: GameState, move: Move) -> bool:
    """A whole tableau pile goes onto a pile that holds cards."""
    return (
        move.src == "t"
        and move.count == len(game.tableau[move.src_index])
        and bool(game.tableau[move.dst_index or 0])
    )


def _home_ready(game: GameState, wanted: set[int]) -> set[int]:
    """The face-up playable cards a foundation takes now."""
    tops = [pile[-1] for pile in game.tableau if pile]
    tops += [pile[-1] for pile in (game.waste, game.reserve[-1:]) if pile]
    return wanted.intersection(tops)
