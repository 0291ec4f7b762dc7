"""A game built from what a player sees, for listing the moves a visible board allows.

A client never knows its face-down cards (the stock, and every reserve card
under the top), and it does not need to: whether a move is legal depends on
face-up cards and on how many cards lie face down, never on which ones. So a
view is turned into a game with `PLACEHOLDER` cards where the face-down ones
lie, and `legal_moves` on it gives exactly the moves the server accepts.

The placeholders must never be played forward past a move that turns one face
up (``draw``, ``deal``, ``redeal``, a move off the reserve): the card it shows
would be made up. Moves among face-up cards give true results.
"""

from __future__ import annotations

from engine.cards import parse_card
from engine.display import View
from engine.rules import Rules
from engine.state import EMPTY, GameState
from engine.status import Outcome
from engine.variants import VARIANT_OPTIONS, find_variant

PLACEHOLDER = 0
"""The card put where a face-down card lies: the ace of clubs. Any card would
do, since no legality check reads a face-down card."""


def game_from_view(view: View) -> GameState:
    """A game with the view's face-up cards and `PLACEHOLDER` for each face-down one.

    ``legal_moves`` of the result are the moves legal in the real game. Raises
    `UnknownVariant` for a bad variant key and `InvalidMove` for a bad card text.
    """
    rules = _rules_shown(view)
    reserve = (PLACEHOLDER,) * view.reserve_hidden
    if view.reserve is not None:
        reserve += (parse_card(view.reserve),)
    used, home_at_redeal = 0, 0
    if rules.passes is not None and view.passes_left is not None:
        used = max(0, rules.passes - view.passes_left)
    elif rules.redeals is None and view.outcome == Outcome.STUCK:
        used, home_at_redeal = 1, view.progress  # a redeal blocked the game
    return GameState(
        variant=view.variant,
        tableau=tuple(_cards(pile) for pile in view.tableau),
        foundations=tuple(EMPTY if top is None else parse_card(top) for top in view.foundations),
        stock=(PLACEHOLDER,) * view.stock,
        waste=_cards(view.waste),
        reserve=reserve,
        passes=used,
        base_rank=view.base_rank,
        option=rules.option,
        home_at_redeal=home_at_redeal,
    )


def _rules_shown(view: View) -> Rules:
    """The variant's rules, or its option without a pass limit where the view
    says none is left to count (``passes_left`` is ``None``) and the standard
    rules have one: the one thing a view tells of its rule option."""
    rules = find_variant(view.variant)
    if view.passes_left is None and rules.passes is not None:
        for option in VARIANT_OPTIONS[rules.key]:
            unlimited = find_variant(rules.key, option)
            if unlimited.passes is None:
                return unlimited
    return rules


def _cards(texts: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(parse_card(text) for text in texts)
