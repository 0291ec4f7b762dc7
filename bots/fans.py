"""How the careful strategy plays a fan game (Little Billie): every card is
face up and every move sends a fan's top card home.

Theory of operation: within one deal a player sees every card; only what a
redeal brings is unknown, and a redeal is allowed only once no fan top fits
a foundation. So the choices that matter are which copy of a card goes to
which foundation, and whether a card that fits an up and a down foundation
goes up or down; the order of moves matters only through them. The planner
searches the deal's lines for the most cards home when no move is left.

A position is the height of each fan and of each foundation, and a position
already valued is remembered. A card whose other copies are home and that fits
a foundation is sent there without branching: that foundation takes nothing
else until it arrives, so no line loses by playing it now. Every other move
is a branch. Each move of the board gets an equal share of `BUDGET`
positions to value; past its share a line is played on by the first move of
each position, and past twice its share it is worth the cards already home,
so a choice costs a bounded amount of work however many branches a deal has.
"""

from __future__ import annotations

from engine import GameState, Move, Rules, find_variant, legal_moves
from engine.state import EMPTY

BUDGET = 400
"""Positions one choice values by search, and as many again by playing lines on."""
NONE = 52
"""No card: what a full foundation takes."""
BEST, WORSE, REDEAL = 0, 1, 2
"""Classes of a move: home on a best line found, home on another, the redeal."""

Step = tuple[int, int]
"""A move as ``(fan, foundation)``."""


def is_fan_game(rules: Rules) -> bool:
    """Whether every card is face up and every move sends a fan top home
    onto a foundation of a fixed suit."""
    fixed = None not in rules.foundation_suits
    return rules.build is None and rules.stock == "none" and not rules.reserve and fixed


def fan_classes(game: GameState) -> list[tuple[int, Move]]:
    """Each legal move of ``game`` with its class, in the engine's order: a
    move home is `BEST` when a line from it sends the most cards home found,
    else `WORSE`; a redeal is `REDEAL`."""
    plan = Plan(game)
    steps = plan.steps(plan.heights, plan.chains)
    values: dict[Step, int] = {}
    for step in steps:
        plan.work, plan.limit = 0, BUDGET // len(steps)
        values[step] = plan.value(*plan.after(plan.heights, plan.chains, step))
    top = max(values.values(), default=0)
    best = {step for step, value in values.items() if value == top}
    return [(_class(move, best), move) for move in legal_moves(game)]


def _class(move: Move, best: set[Step]) -> int:
    if move.action != "move":
        return REDEAL
    return BEST if (move.src_index, move.dst_index) in best else WORSE


class Plan:
    """One deal's search: the fans, and the card each foundation takes at each height."""

    def __init__(self, game: GameState) -> None:
        rules = find_variant(game.variant)
        self.copies = rules.decks
        self.wants = [_wants(rules, game.base_rank, index) for index in range(rules.foundations)]
        spots: list[list[tuple[int, int]]] = [[] for _ in range(NONE + 1)]
        for fan, pile in enumerate(game.tableau):
            for depth, card in enumerate(pile, 1):
                spots[card].append((fan, depth))
        self.spots = spots
        """Per card, each fan it lies in with the fan's height when it is on top."""
        places: list[list[tuple[int, int]]] = [[] for _ in range(NONE + 1)]
        for foundation, want in enumerate(self.wants):
            for place, card in enumerate(want[:-1]):
                places[card].append((foundation, place))
        self.places = places
        """Per card, each foundation of its suit with the card's place there."""
        self.heights = bytes(map(len, game.tableau))
        self.chains = bytes(
            0 if top == EMPTY else want.index(top) + 1
            for want, top in zip(self.wants, game.foundations, strict=True)
        )
        self.known: dict[bytes, int] = {}
        self.work = 0
        """Positions valued by search so far."""
        self.limit = BUDGET
        """The share of `BUDGET` of the move being valued."""

    def steps(self, heights: bytes, chains: bytes) -> list[Step]:
        """Every move home, by foundation then fan."""
        found: list[Step] = []
        for foundation, want in enumerate(self.wants):
            for fan, height in self.spots[want[chains[foundation]]]:
                if heights[fan] == height:
                    found.append((fan, foundation))
        return found

    def after(self, heights: bytes, chains: bytes, step: Step) -> tuple[bytes, bytes]:
        """The heights once ``step`` is played."""
        fan, foundation = step
        fans, foundations = bytearray(heights), bytearray(chains)
        fans[fan] -= 1
        foundations[foundation] += 1
        return bytes(fans), bytes(foundations)

    def forced(self, steps: list[Step], chains: bytes) -> Step | None:
        """A step whose card's other copies are all home (it fits no other foundation)."""
        for fan, foundation in steps:
            card = self.wants[foundation][chains[foundation]]
            if self.home(card, chains) == self.copies - 1:
                return fan, foundation
        return None

    def home(self, card: int, chains: bytes) -> int:
        """The copies of ``card`` on the foundations."""
        return sum(place < chains[foundation] for foundation, place in self.places[card])

    def value(self, heights: bytes, chains: bytes) -> int:
        """The most cards home at the end of the deal on a line found from here."""
        while True:
            steps = self.steps(heights, chains)
            forced = self.forced(steps, chains)
            if forced is None:
                break
            heights, chains = self.after(heights, chains, forced)
        if not steps:
            return sum(chains)
        key = heights + chains
        known = self.known.get(key)
        if known is not None:
            return known
        if self.work >= 2 * self.limit:
            return sum(chains)
        self.work += 1
        if self.work > self.limit:
            steps = steps[:1]
        best = max(self.value(*self.after(heights, chains, step)) for step in steps)
        self.known[key] = best
        return best


def _wants(rules: Rules, base_rank: int, index: int) -> tuple[int, ...]:
    """The card foundation ``index`` takes at each height, then `NONE`."""
    suit = rules.foundation_suits[index] or 0
    start = rules.start_rank(index, base_rank) - 1
    step = -1 if rules.foundation_down[index] else 1
    return (*(suit * 13 + (start + step * height) % 13 for height in range(13)), NONE)
