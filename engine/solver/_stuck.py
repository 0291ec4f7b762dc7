"""Little Milligan endgames that can never be won: cards that can never leave
their places, found once the stock is empty.

Every card must leave its place to go home. A card can leave its place
first only when it is the top (the card on it left first) or rides along
in a run with the card under it (which leaves then too), and only to go
home (after the card before it in its suit left its own place, unless that
card lies under it or is home already), onto a parent (a card one rank
higher that takes it, not home, not under it, and able to be a top: a top
now, or one whose card above or itself left its place), or, for a King,
into an empty pile. The cards that can leave are found by adding every card
meeting these conditions until none is added; each condition is one a real
line must meet, so a card never added can never go home.

This holds in one-deck games whose empty piles take only Kings, with nothing
left to deal (a dealt card would cover a top and bring a new one).
"""

from __future__ import annotations

from functools import cache

from engine.rules import Rules
from engine.state import GameState

Place = tuple[int, int]


def has_stuck_card(rules: Rules, state: GameState, heights: list[list[int]]) -> bool:
    """Whether some tableau card can never leave its place (see above);
    ``heights`` as from `engine.solver._game.home_heights`."""
    return _Endgame(rules, state, heights).stuck()


class _Endgame:
    def __init__(self, rules: Rules, state: GameState, heights: list[list[int]]) -> None:
        self.stacks = rules.stacks
        self.parents = parents_of(rules)
        self.tableau = state.tableau
        self.home = {
            suit * 13 + rank
            for suit in range(4)
            for height in heights[suit]
            for rank in range(height)
        }
        self.places: dict[int, Place] = {
            cards[depth]: (pile, depth)
            for pile, cards in enumerate(state.tableau)
            for depth in range(len(cards) - 1, -1, -1)
        }
        """Top cards first: a card may leave once those on it did, so one
        pass then finds most of them (the order does not change the result,
        as a card that may leave stays so when more cards do)."""
        self.left: set[int] = set()

    def stuck(self) -> bool:
        left, places = self.left, self.places
        grew = True
        while grew and len(left) < len(places):
            grew = False
            for card, place in places.items():
                if card not in left and self._leaves(card, place):
                    left.add(card)
                    grew = True
        return len(left) < len(places)

    def _leaves(self, card: int, place: Place) -> bool:
        pile, depth = self.tableau[place[0]], place[1]
        left = self.left
        if depth and pile[depth - 1] in left and self.stacks[pile[depth - 1] * 52 + card]:
            return True
        rank = card % 13
        if depth + 1 == len(pile) or pile[depth + 1] in left:
            if rank == 0 or self._free(card - 1, place):
                return True
        elif not self._heads_run(pile, depth):
            return False
        if rank == 12:
            return True
        return any(self._may_top(parent, place) for parent in self.parents[card])

    def _heads_run(self, pile: tuple[int, ...], depth: int) -> bool:
        """Whether the card at ``depth`` may head a run to the top: the cards
        on it each take the next, up to the top or to one that left."""
        left, stacks = self.left, self.stacks
        for at in range(depth + 1, len(pile)):
            if pile[at] in left:
                return True
            if not stacks[pile[at - 1] * 52 + pile[at]]:
                return False
        return True

    def _free(self, card: int, above: Place) -> bool:
        """Whether ``card`` is home or may leave before the card at ``above``."""
        return card in self.home or (card in self.left and not self._under(card, above))

    def _may_top(self, card: int, above: Place) -> bool:
        """Whether ``card`` may be a top for the card at ``above`` to go onto."""
        if card in self.home:
            return False
        place = self.places.get(card)
        if place is None:
            return card in self.left
        if place[0] == above[0] and place[1] < above[1]:
            return False
        if card in self.left:
            return True
        pile = self.tableau[place[0]]
        return place[1] + 1 == len(pile) or pile[place[1] + 1] in self.left

    def _under(self, card: int, above: Place) -> bool:
        place = self.places.get(card)
        return place is not None and place[0] == above[0] and place[1] < above[1]


@cache
def parents_of(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """For each card, the cards it may lie on in the tableau."""
    return tuple(
        tuple(lower for lower in range(52) if rules.stacks[lower * 52 + card]) for card in range(52)
    )
