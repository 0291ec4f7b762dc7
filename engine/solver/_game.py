"""What the search needs to know about a variant, computed once per solve."""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

from engine._foundation import next_card
from engine._tableau import run_length, takes
from engine.rules import Rules
from engine.state import EMPTY, GameState


@dataclass(frozen=True, slots=True)
class Game:
    rules: Rules
    sort_piles: bool
    """Tableau piles are interchangeable (no deal puts a card on a given pile)."""
    sort_foundations: bool
    """Foundations are all of one kind (any suit, one direction)."""
    keep_passes: bool
    """Passes used change what is left to do (they are limited)."""
    stock_cycle: bool = False
    """The waste may be turned over without limit, so stock and waste are
    one cycle of cards (see `stock_key`)."""
    stuck_cards: bool = False
    """Endgames may hold cards that can never leave their places (see
    `engine.solver._stuck`)."""
    piles_are_runs: bool = False
    """Every tableau pile is one run, now and after any move (see
    `piles_stay_runs`), so a pile's run is the whole pile."""
    quick: bool = False
    """Try only moves that make progress at once: fast to a win, but never
    a proof that there is none."""
    greedy_home: bool = False
    """With ``quick``: a move home, when there is one, is the only move
    tried (a streamliner, as in Solvitaire: narrower again, and in Little
    Milligan fast to most wins the quick search finds late)."""
    to_empty: tuple[bool, ...] = ()
    """Per card, whether an empty pile takes it (or a run it heads)."""
    stuck_known: dict[bytes, bool] = field(default_factory=dict, compare=False, repr=False)
    """Stuck-card answers by position key: a search meets the same endgame
    again by other lines, and the answer depends on the position alone."""
    targets_known: dict[tuple[tuple[int, ...], int], dict[int, list[int]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """`home_targets` by foundation tops and base rank, which alone decide it
    (few distinct ones against many positions); never to be changed."""

    @classmethod
    def of(cls, rules: Rules, quick: bool = False) -> Game:
        alike = len(set(zip(rules.foundation_suits, rules.foundation_down, strict=True))) == 1
        return cls(
            rules=rules,
            sort_piles=rules.stock != "deal",
            sort_foundations=alike and rules.foundation_suits[0] is None,
            keep_passes=rules.passes is not None or rules.has_redeal,
            stock_cycle=rules.stock == "draw" and rules.recycles is None,
            stuck_cards=rules.decks == 1 and rules.empty_pile == "king" and rules.build is not None,
            quick=quick,
            to_empty=tuple(takes(rules, (), card) for card in range(52)),
        )


def piles_stay_runs(rules: Rules, state: GameState) -> bool:
    """Whether every tableau pile of ``state`` is one run and stays one.

    A pile that is one run stays one when cards join it only by building on
    its top or into it empty (both as the build rule says) and leave it only
    from the top: so in a game that builds, where no deal puts stock cards on
    the piles and no redeal lays them out again.
    """
    if rules.build is None or rules.stock == "deal" or rules.has_redeal:
        return False
    return all(run_length(rules, pile) == len(pile) for pile in state.tableau)


def known_targets(game: Game, state: GameState) -> dict[int, list[int]]:
    """`home_targets`, remembered for the search (read only)."""
    at = (state.foundations, state.base_rank)
    targets = game.targets_known.get(at)
    if targets is None:
        targets = game.targets_known[at] = home_targets(game.rules, state)
    return targets


def home_targets(rules: Rules, state: GameState) -> dict[int, list[int]]:
    """Each card some foundation takes now, with one foundation per distinct result."""
    targets: dict[int, list[int]] = {}
    kinds: set[tuple[bool, int, int | None]] = set()
    for index, top in enumerate(state.foundations):
        kind = (rules.foundation_down[index], top, rules.foundation_suits[index])
        if kind in kinds:
            continue
        kinds.add(kind)
        for card in _taken(rules, state.base_rank, index, top):
            targets.setdefault(card, []).append(index)
    return targets


def _taken(rules: Rules, base_rank: int, index: int, top: int) -> list[int]:
    start = rules.start_rank(index, base_rank)
    if top == EMPTY:
        suit = rules.foundation_suits[index]
        suits = range(4) if suit is None else (suit,)
        return [s * 13 + start - 1 for s in suits]
    follower = next_card(rules, index, top)
    return [] if follower % 13 + 1 == start else [follower]


def home_heights(rules: Rules, state: GameState) -> list[list[int]]:
    """Per suit, the height of each up foundation of that suit."""
    heights: list[list[int]] = [[], [], [], []]
    for index, top in enumerate(state.foundations):
        if top != EMPTY and not rules.foundation_down[index]:
            start = rules.start_rank(index, state.base_rank)
            heights[top // 13].append((top % 13 + 1 - start) % 13 + 1)
    return heights


def is_safe_home(rules: Rules, state: GameState, card: int, heights: list[list[int]]) -> bool:
    """Whether every card that could ever lie on ``card`` is already home.

    Then ``card`` has no use left in the tableau, so sending it home loses
    nothing: any line that keeps it can be played with it home instead.
    A first card of a foundation that nothing can lie on (an Ace without
    wrap) counts as home: it is never needed on the tableau, since a
    foundation is always free for it.
    """
    for taker in rules.takers[card]:
        rank_height = (taker % 13 + 1 - state.base_rank) % 13 + 1
        if rank_height == 1 and not rules.takers[taker]:
            continue
        copies = sum(1 for height in heights[taker // 13] if height >= rank_height)
        if copies < rules.decks:
            return False
    return True


def is_won(state: GameState) -> bool:
    return not (state.stock or state.waste or state.reserve or any(state.tableau))


def state_key(game: Game, state: GameState) -> bytes:
    """A key equal for positions that play alike: interchangeable piles and
    foundations in sorted order, the reserve by its size. Where a deal puts
    one stock card on each pile in turn, only the piles past the last one
    the stock will reach are interchangeable."""
    if game.sort_piles:
        piles = sorted(map(bytes, state.tableau))
    else:
        piles = list(map(bytes, state.tableau))
        dealt_to = len(state.stock)
        piles[dealt_to:] = sorted(piles[dealt_to:])
    tops = array("b", sorted(state.foundations) if game.sort_foundations else state.foundations)
    if game.rules.stock == "deal":
        stock = bytes((len(state.stock),))
    elif game.stock_cycle:
        stock = stock_key(game.rules.draw, state.stock, state.waste)
    else:
        stock = bytes(state.stock) + b"\xfd" + bytes(state.waste)
    passes = state.passes if game.keep_passes else 0
    tail = bytes((len(state.reserve), passes))
    return b"\xfe".join(piles) + b"\xff" + tops.tobytes() + b"\xff" + stock + tail


def stock_key(draw: int, stock: tuple[int, ...], waste: tuple[int, ...]) -> bytes:
    """Stock and waste of a stock turned over without limit, as one cycle.

    The cards in the order they are drawn (the waste's first drawn first,
    then the stock's next card on) and how many of them lie on the waste.
    Where that many is a multiple of the draw, or all of them, it is given
    as none: proof that this merges only positions that play alike: from
    the waste empty, drawing k times lays exactly ``k * draw`` cards on the
    waste (or all of them at the end), and from any such split drawing to
    the end and turning the waste over (which keeps the order) empties the
    waste again. So each of these positions reaches every other by draws
    and turn-overs alone, which change nothing else, and they are won or
    lost alike. Other splits reach cards these do not and keep their own.
    """
    split = len(waste)
    if not stock or split % draw == 0:
        split = 0
    return bytes(waste) + bytes(reversed(stock)) + bytes((0xFD, split))
