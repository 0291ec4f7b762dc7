"""Little Billie's search: lean positions, their children, and redeals.

Theory of operation: within one deal the fans are fixed and only their top
cards leave, so a position is the deal, the height of each fan and the
height of each chain (see `engine.solver._chains`), as bytes; a child
changes one byte of each. Engine states are made only where a redeal
gathers the cards left, and for the checks of a last deal.

A fan top is sent home alone, as a forced step, when it is the last copy of
its card out and fits one foundation: that foundation can take nothing else
until this card arrives, and no redeal is allowed while it fits, so any line
plays it before anything that depends on it and playing it now loses nothing.
"""

from __future__ import annotations

from engine._layout import fans
from engine.deal import permutation
from engine.moves import Move
from engine.rules import Rules
from engine.solver._chains import NONE, Choices, Table, blocked, fewest_foundations
from engine.solver._children import Moved
from engine.solver._clear import can_clear
from engine.state import GameState
from engine.status import wanted_cards

REDEAL = (Move("redeal"),)
BYTE = [bytes((value,)) for value in range(256)]


class Deal:
    """One deal's fans, with where each card lies in them."""

    __slots__ = ("empty", "fans", "passes", "spots", "tag", "twins")

    def __init__(self, piles: tuple[tuple[int, ...], ...], passes: int, number: int) -> None:
        self.fans = piles
        self.passes = passes
        self.tag = number.to_bytes(4, "big")
        """Tells this deal from every other one of the search."""
        self.empty = bytes(len(piles))
        """The fan heights once every fan is empty."""
        spots: list[list[tuple[int, int]]] = [[] for _ in range(NONE + 1)]
        for index, pile in enumerate(piles):
            for depth, card in enumerate(pile):
                spots[card].append((index, depth + 1))
        self.spots = tuple(map(tuple, spots))
        """Per card, each fan it lies in, with the fan's height when it is on top."""
        twins: list[tuple[int, int, int]] = []
        for found in spots:
            if len(found) == 2 and found[0][1] == found[1][1] == 1:
                one, two = found[0][0], found[1][0]
                same = 1
                while piles[one][same : same + 1] == piles[two][same : same + 1] != ():
                    same += 1
                twins.append((one, two, same))
        self.twins = tuple(twins)
        """Pairs of fans with the same bottom card (twins), each with the
        number of cards at the bottom they share."""


Position = tuple[Deal, bytes, bytes]
"""``(deal, fan heights, chain heights)``."""
Child = tuple[tuple[Move, ...], Position, Moved]


class Fans:
    """The search space of one Little Billie solve: positions and their
    children, with the answers that depend on the chains alone (the chosen
    foundations, each redeal's next deal) remembered."""

    def __init__(self, rules: Rules, state: GameState) -> None:
        self.rules = rules
        self.variant = state.variant
        self.base_rank = state.base_rank
        self.seed = state.seed
        self.table = Table(rules, state)
        self.redealer = Redealer(rules, state.seed)
        self.deals = {(state.tableau, state.passes): Deal(state.tableau, state.passes, 0)}
        """Each deal of the search by its fans and redeals used: lines that
        reach the same cards left with the same cards home on other chains
        meet the same fans."""
        self.start: Position = (
            self.deals[state.tableau, state.passes],
            bytes(map(len, state.tableau)),
            self.table.start,
        )
        self.steps = [
            [
                (Move("move", "t", fan, None, "f", foundation),)
                for foundation in range(self.table.count)
            ]
            for fan in range(len(state.tableau))
        ]
        self.chosen: Choices = {}
        self.dealt: dict[tuple[bytes, int], Position | None] = {}

    def key(self, position: Position) -> bytes:
        """Equal for positions that play alike: the same deal and chains,
        and the same cards left in the fans. Only twin fans (see `Deal`)
        can hold the same cards, when neither is taller than the cards they
        share; the key then gives the taller one's height first."""
        deal, heights, chains = position
        for one, two, same in deal.twins:
            high, low = heights[two], heights[one]
            if low < high <= same:
                heights = (
                    heights[:one]
                    + BYTE[high]
                    + heights[one + 1 : two]
                    + BYTE[low]
                    + heights[two + 1 :]
                )
        return deal.tag + heights + chains

    def won(self, position: Position) -> bool:
        return position[1] == position[0].empty

    def state(self, position: Position) -> GameState:
        """The engine state of ``position``."""
        deal, heights, chains = position
        return GameState(
            self.variant,
            tuple(pile[:height] for pile, height in zip(deal.fans, heights, strict=True)),
            self.table.tops(chains),
            passes=deal.passes,
            base_rank=self.base_rank,
            seed=self.seed,
            option=self.rules.option,
            home_at_redeal=self.home_at_redeal(deal),
        )

    def home_at_redeal(self, deal: Deal) -> int:
        """`GameState.home_at_redeal` in ``deal``: kept only with redeals until blocked."""
        if self.rules.redeals is not None or not deal.passes:
            return 0
        return self.rules.total - sum(map(len, deal.fans))

    def children(self, position: Position, _moved: Moved = None) -> list[Child]:
        """Moves home onto the chosen foundations (see `fewest_foundations`),
        in the order of the fans, or a forced one alone; with none, the
        redeal."""
        deal, heights, chains = position
        table = self.table
        spots, piles = deal.spots, deal.fans
        moves: list[tuple[int, int]] = []
        used = 0
        # Each foundation waiting for a card with a card right on it, with
        # that card: ``foundation * 52 + blocker``.
        blocks: list[int] = []
        for foundation, want in enumerate(table.want):
            waited = want[chains[foundation]]
            for fan, top in spots[waited]:
                height = heights[fan]
                if height == top:
                    moves.append((fan, foundation))
                    used |= 1 << foundation
                elif height > top:
                    blocks.append(foundation * 52 + piles[fan][top])
        if moves:
            if len(moves) > 1:
                moves.sort()
            forced = table.forced(chains, moves)
            if forced is not None:
                return [self._child(position, *forced)]
            if used & (used - 1):
                chosen = fewest_foundations(table, chains, moves, frozenset(blocks), self.chosen)
                moves = [(fan, f) for fan, f in moves if chosen >> f & 1]
            return [self._child(position, fan, foundation) for fan, foundation in moves]
        limit = self.rules.redeals
        if (limit is None or deal.passes < limit) and heights != deal.empty:
            redealt = self.next_deal(position)
            if redealt is not None:
                return [(REDEAL, redealt, None)]
        return []

    def _child(self, position: Position, fan: int, foundation: int) -> Child:
        deal, heights, chains = position
        heights = heights[:fan] + BYTE[heights[fan] - 1] + heights[fan + 1 :]
        chains = chains[:foundation] + BYTE[chains[foundation] + 1] + chains[foundation + 1 :]
        return self.steps[fan][foundation], (deal, heights, chains), None

    def next_deal(self, position: Position) -> Position | None:
        """The position after the next redeal, or None when that starts the
        last deal and the last deal is lost (see `_lost`), or, with redeals
        until blocked, when it leaves no fan's top card fitting (the game is
        then over, see `engine._stock.is_fresh_redeal`). Remembered by the
        chains and the redeals used, which alone decide it (they decide the
        cards left, and the same cards left give the same fans): lines that
        empty the same cards in other orders meet the same redeal."""
        deal, _, chains = position
        at = (chains, deal.passes)
        if at not in self.dealt:
            redealt = self.redealer.redealt(self.state(position))
            if _ends(self.rules, redealt):
                self.dealt[at] = None
            else:
                found = (redealt.tableau, redealt.passes)
                if found not in self.deals:
                    self.deals[found] = Deal(redealt.tableau, redealt.passes, len(self.deals))
                self.dealt[at] = (self.deals[found], bytes(map(len, redealt.tableau)), chains)
        return self.dealt[at]


class Redealer:
    """Little Billie's redeals, with each deal's card order drawn once."""

    def __init__(self, rules: Rules, seed: bytes) -> None:
        self.rules = rules
        self.seed = seed
        self.places: list[list[int]] = []
        """Per redeal (the first at 0), each slot's place in its order; drawn
        as the search first reaches that redeal."""

    def redealt(self, state: GameState) -> GameState:
        """The fans after the next redeal (see `engine._stock.redeal_order`)."""
        rules = self.rules
        while len(self.places) <= state.passes:
            place = [0] * rules.total
            label = f"deal/{len(self.places) + 1}"
            for position, slot in enumerate(permutation(self.seed, rules.key, label, rules.total)):
                place[slot] = position
            self.places.append(place)
        place = self.places[state.passes]
        copies = [0] * 52
        slots: list[int] = []
        for pile in state.tableau:
            for card in pile:
                slots.append(copies[card] * 52 + card)
                copies[card] += 1
        slots.sort(key=place.__getitem__)
        return state.evolve(
            tableau=fans(rules, [slot % 52 for slot in slots]),
            passes=state.passes + 1,
            home_at_redeal=rules.total - len(slots) if rules.redeals is None else 0,
        )


def _ends(rules: Rules, redealt: GameState) -> bool:
    """Whether the game is lost right after this redeal: it started the last
    deal and that is lost, or (until blocked) no fan's top card fits."""
    if rules.redeals is None:
        wanted = wanted_cards(redealt)
        return not any(pile[-1] in wanted for pile in redealt.tableau if pile)
    return redealt.passes == rules.redeals and _lost(rules, redealt)


def _lost(rules: Rules, last_deal: GameState) -> bool:
    """Whether the last deal is lost: blocked, or cleared by no choice of
    chains for the copies left (`can_clear`, which may not find out)."""
    return blocked(rules, last_deal) or can_clear(rules, last_deal) is False
