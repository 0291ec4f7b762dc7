"""What a spectator may see of a racer's board while the race is on.

Theory of operation: every racer of a race plays the same deal, so any card
shown of one racer's game tells the others what lies at that place of their
own deal. The secrets of a deal are its orders, not its card names: the order
of the stock (Little Forty, Double Canfield 40, Little Milligan's rows), of
Double Canfield 40's reserve, and the layout of each of Little Billie's
redeals. A racer has *seen* a prefix of each order (`Seen`, read off the
racer's state alone: the stock and reserve only ever turn up in order, and
``passes`` counts the redeals). A card is shown to spectators only when every
racer still racing has seen the place of the deal it came from
(`seen_by_all`), wherever the card lies now: waste, tableau or foundation.
So each card's place of origin is followed move by move (`TrackedGame`).

Rulings (docs/spectators.md):

- Cards dealt face up (the tableau, the base card, the reserve's first top,
  all of Little Billie's first deal) are known to every racer: always shown.
- A card from the stock or reserve is shown once every racer still racing
  has turned up that position; before then it is `HIDDEN_CARD`.
- A fan of Little Billie after a racer's ``k``-th redeal, and every card that
  racer sent home from it, are shown once every racer still racing has made
  ``k`` redeals.
- A foundation's top implies every card beneath it, and a foundation builds
  in sequence, so one hidden top beside its last shown top would name the
  card that went there: while any card on any of a racer's foundations may
  not be shown, every non-empty foundation top of that racer is hidden.
- Counts are always kept: pile lengths, stock and hidden reserve counts,
  passes left, cards home, outcome.
- A racer who has finished no longer limits what is shown; with nobody
  racing, everything is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from engine._origins import Layout, Origins, dealt, follow
from engine.display import View, view
from engine.game import apply, new_game
from engine.moves import Move
from engine.state import GameState
from engine.variants import find_variant

HIDDEN_CARD = "??"
"""Stands where a card is that a spectator may not see yet (its place is kept)."""


@dataclass(frozen=True, slots=True)
class Seen:
    """How far one racer has seen into each secret order of the deal."""

    stock: int
    """Stock positions turned up, counted in the order the stock gives them."""
    reserve: int
    """Reserve positions turned face up, counted from the first top down."""
    redeals: int
    """Redeals made (Little Billie)."""


@dataclass(frozen=True, slots=True)
class TrackedGame:
    """A game together with where each of its cards came from in the deal."""

    state: GameState
    origins: Origins

    @classmethod
    def start(cls, variant: str, seed: bytes, option: str = "") -> TrackedGame:
        """The deal of ``seed``, as `engine.new_game` makes it."""
        return cls(new_game(variant, seed, option), dealt(find_variant(variant, option)))

    def apply(self, move: Move) -> TrackedGame:
        """The game after ``move``; raises as `engine.apply` does."""
        after = apply(self.state, move)
        rules = find_variant(self.state.variant, self.state.option)
        return TrackedGame(after, follow(rules, self.state, move, after, self.origins))


def seen(state: GameState) -> Seen:
    """What the racer whose game is ``state`` has seen of the deal's orders."""
    rules = find_variant(state.variant, state.option)
    layout = Layout.of(rules)
    in_stock = rules.total - layout.reserve_end
    reserve = rules.reserve - len(state.reserve) + (1 if state.reserve else 0)
    return Seen(
        stock=in_stock if state.passes else in_stock - len(state.stock),
        reserve=reserve,
        redeals=state.passes if rules.has_redeal else 0,
    )


def seen_by_all(racing: Iterable[GameState]) -> Seen | None:
    """What every racer still racing has seen (their games given by ``racing``);
    ``None`` when nobody is racing, so nothing is hidden any more."""
    views = [seen(state) for state in racing]
    if not views:
        return None
    return Seen(
        stock=min(each.stock for each in views),
        reserve=min(each.reserve for each in views),
        redeals=min(each.redeals for each in views),
    )


def spectator_view(game: TrackedGame, known: Seen | None) -> View:
    """`engine.view` of ``game`` with every card not ``known`` to all racers
    still racing replaced by `HIDDEN_CARD`; ``None`` shows everything."""
    full = view(game.state)
    if known is None:
        return full
    shown = _shown(game.state.variant, game.state.option, known).__getitem__
    origins = game.origins
    tableau = tuple(map(_masked, full.tableau, origins.tableau, [shown] * len(full.tableau)))
    foundations = full.foundations
    if not all(all(map(shown, pile)) for pile in origins.foundations):
        foundations = tuple(None if top is None else HIDDEN_CARD for top in foundations)
    reserve = full.reserve
    if reserve is not None and not shown(origins.reserve[-1]):
        reserve = HIDDEN_CARD
    waste = _masked(full.waste, origins.waste, shown)
    return replace(full, tableau=tableau, foundations=foundations, waste=waste, reserve=reserve)


@lru_cache(maxsize=64)
def _shown(variant: str, option: str, known: Seen) -> bytes:
    """Whether a card of each origin may be shown (1) or not (0), given what all
    have seen: a table over every origin of every deal the game can have, made
    once per (variant, option, known)."""
    rules = find_variant(variant, option)
    layout = Layout.of(rules)
    total = rules.total

    def shown(origin: int) -> bool:
        deal, position = divmod(origin, total)
        if deal:
            return deal <= known.redeals
        if position < layout.face_up:
            return True
        if position < layout.reserve_end:
            return layout.reserve_end - 1 - position < known.reserve
        return position - layout.reserve_end < known.stock

    return bytes(map(shown, range(total * rules.deals)))


def _masked(
    texts: tuple[str, ...], origins: tuple[int, ...], shown: Callable[[int], int]
) -> tuple[str, ...]:
    if all(map(shown, origins)):
        return texts
    return tuple(
        text if shown(origin) else HIDDEN_CARD for text, origin in zip(texts, origins, strict=True)
    )
