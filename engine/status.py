"""How a game stands: playing, won or stuck, and how far it has come.

A player is stuck when no move that changes the game is left. Drawing and
turning the waste over count only if some card they would bring to the
waste top (before the passes run out, or within one whole cycle when they
never do) could be played somewhere in the current position. The checks run
cheapest first, since the server asks after every move.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from enum import StrEnum
from operator import itemgetter

from engine import _foundation, _stock
from engine._tableau import Pile, takes
from engine.rules import Rules
from engine.state import GameState
from engine.variants import find_variant

Piles = tuple[Pile, ...]
_top = itemgetter(-1)


class Outcome(StrEnum):
    PLAYING = "playing"
    WON = "won"
    STUCK = "stuck"


def progress(state: GameState) -> int:
    """Cards on the foundations."""
    return _foundation.standing(find_variant(state.variant, state.option), state)[1]


def wanted_cards(state: GameState) -> set[int]:
    """Every card some foundation would take now (wherever it lies)."""
    return _foundation.wanted(find_variant(state.variant, state.option), state)


def outcome(state: GameState) -> Outcome:
    """Won, stuck, or still playing; cheap when a move is plainly left."""
    rules = find_variant(state.variant, state.option)
    return judge(rules, state, _foundation.standing(rules, state)[0])


def judge(rules: Rules, state: GameState, wanted: AbstractSet[int]) -> Outcome:
    """`outcome`, given the cards the foundations want."""
    if not (state.stock or state.waste or state.reserve or any(state.tableau)):
        return Outcome.WON
    if rules.stock == "deal" and state.stock:
        return Outcome.PLAYING
    if rules.build is None and rules.stock != "draw":
        return _judge_fans(rules, state, wanted)
    tops = [*map(_top, filter(None, state.tableau))]
    loose = [*map(_top, filter(None, (state.waste, state.reserve)))]
    faces = tops + loose
    if not wanted.isdisjoint(faces):
        return Outcome.PLAYING
    fitting = set(map(rules.wants.__getitem__, tops))  # kinds some top takes (`Rules.kinds`)
    if rules.build is not None and not fitting.isdisjoint(map(rules.kinds.__getitem__, faces)):
        return Outcome.PLAYING  # a face-up card goes on a pile's top (never its own)
    empty = len(tops) < len(state.tableau)
    if rules.build is not None and empty and any(takes(rules, (), card) for card in loose):
        return Outcome.PLAYING
    if rules.stock == "draw" and _stock_helps(rules, state, wanted, fitting, empty):
        return Outcome.PLAYING
    if rules.build is not None and _run_fits(rules, state.tableau, fitting, empty):
        return Outcome.PLAYING
    if rules.has_redeal and _stock.can_redeal(rules, state):
        return Outcome.PLAYING
    return Outcome.STUCK


def _judge_fans(rules: Rules, state: GameState, wanted: AbstractSet[int]) -> Outcome:
    """Where nothing is built and nothing drawn (fans), only a card going home or
    a redeal is left; the piles' tops are looked at until one goes home."""
    piles = (*state.tableau, state.waste, state.reserve)
    if not wanted.isdisjoint(map(_top, filter(None, piles))):
        return Outcome.PLAYING
    if rules.has_redeal and _stock.can_redeal(rules, state):
        return Outcome.PLAYING
    return Outcome.STUCK


def _run_fits(rules: Rules, tableau: Piles, fitting: set[int], empty: bool) -> bool:
    """Whether a run of two or more cards goes onto another pile's top card, or some
    run short of a whole pile into an empty pile: with the single cards `judge`
    looks at first, whether `run_moves` would yield anything."""
    stacks, kinds = rules.stacks, rules.kinds
    for src, pile in enumerate(tableau):
        run = 1
        while run < len(pile) and stacks[pile[-run - 1] * 52 + pile[-run]]:
            run += 1
            card = pile[-run]
            if kinds[card] in fitting and _fits_elsewhere(stacks, tableau, src, card):
                return True
        if empty and any(
            takes(rules, (), pile[-size]) for size in range(1, min(run, len(pile) - 1) + 1)
        ):
            return True
    return False


def _fits_elsewhere(stacks: bytes, tableau: Piles, src: int, card: int) -> bool:
    """Whether ``card`` goes on the top of a pile other than ``src``."""
    return any(
        stacks[target[-1] * 52 + card] for at, target in enumerate(tableau) if target and at != src
    )


_KINGS = frozenset(suit * 13 + 12 for suit in range(4))


def _stock_helps(
    rules: Rules, state: GameState, wanted: AbstractSet[int], fitting: set[int], empty: bool
) -> bool:
    """Whether drawing and recycling alone would bring up a card that plays now:
    one ``wanted`` home, or of a kind some pile top takes (``fitting``)."""
    if empty:
        if rules.empty_pile == "any":
            return _stock.can_bring_up(rules, state)
        if rules.empty_pile == "king":
            wanted = wanted | _KINGS
    kind = rules.kinds.__getitem__
    for tops in _stock.waste_tops(rules, state):
        if not (wanted.isdisjoint(tops) and fitting.isdisjoint(map(kind, tops))):
            return True
    return False
