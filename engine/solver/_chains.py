"""Little Billie's foundations as chains: which of their moves need trying,
and when a last deal can never be cleared.

Each foundation is a chain of one suit in one direction that takes one copy
of each rank in turn. A card's place in a chain is how many cards come
before it there; a chain's height is how many it holds, so a card fits when
its place equals the height and is on the chain when its place is lower.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine import _foundation
from engine.rules import Rules
from engine.state import GameState

Chain = tuple[int, int, bool, int]
"""``(suit, start rank index, down, height)``."""
FULL = 13


def chains(rules: Rules, state: GameState) -> list[Chain]:
    """Each foundation as a chain (every foundation of a fan game has a suit)."""
    found: list[Chain] = []
    for index, top in enumerate(state.foundations):
        start = rules.start_rank(index, state.base_rank) - 1
        height = _foundation.height(rules, state.base_rank, index, top)
        found.append(
            (rules.foundation_suits[index] or 0, start, rules.foundation_down[index], height)
        )
    return found


def place(chain: Chain, card: int) -> int:
    """Where ``card`` (of the chain's suit) comes in the chain."""
    _, start, down, _ = chain
    return (start - card % 13) % 13 if down else (card % 13 - start) % 13


def wanted(lines: list[Chain]) -> dict[int, list[int]]:
    """Each card some foundation takes now, with the foundations taking it."""
    cards: dict[int, list[int]] = {}
    for index, (suit, start, down, height) in enumerate(lines):
        if height < FULL:
            rank = (start - height) % 13 if down else (start + height) % 13
            cards.setdefault(suit * 13 + rank, []).append(index)
    return cards


def copies_home(lines: list[Chain], card: int) -> int:
    return sum(1 for chain in lines if chain[0] == card // 13 and place(chain, card) < chain[3])


@dataclass(slots=True)
class Memo:
    """What `fewest_foundations` remembers for one state of the foundations."""

    takers: dict[int, int] = field(default_factory=dict)
    """`_takers` answers by card, as bit masks of foundations."""
    chosen: dict[tuple[tuple[int, ...], frozenset[int]], set[int]] = field(default_factory=dict)
    """Answers by the foundations moved to and `_blocks`; never to be changed."""


def fewest_foundations(
    lines: list[Chain],
    waits: dict[int, list[int]],
    tableau: tuple[tuple[int, ...], ...],
    moves: list[tuple[int, int]],
    memo: Memo,
) -> set[int]:
    """The foundations whose moves alone need trying: a closed set with the
    fewest moves now (a stubborn set, in partial-order reduction terms).
    ``memo`` remembers answers for these chains between calls.

    Moves onto different foundations remove different cards, so they
    commute, unless one card fits two foundations: then both are in the set.
    No move outside the set can make a move onto the set possible: whenever
    a foundation of the set waits for a card buried in a fan, every
    foundation that may still take the card lying right on it is in the
    set, and that card must leave before the one beneath can. And the set
    holds a move no move outside it can take away (see `_with_key_move`).
    So every position with no move left (a win, or a redeal point)
    reachable with all moves is reachable with these.

    Given the chains, the answer depends only on the foundations the moves
    go to, in their order, and on which card lies right on each card a
    foundation waits for (each foundation waits for one card), so it is
    remembered by these: far fewer than the positions searched.
    """
    used = {foundation for _, foundation in moves}
    if len(used) == 1:
        return used
    key = (tuple(foundation for _, foundation in moves), _blocks(waits, tableau))
    chosen = memo.chosen.get(key)
    if chosen is None:
        chosen = memo.chosen[key] = _fewest(
            lines, waits, tableau, moves, blocks=key[1], takers=memo.takers
        )
    return chosen


def _blocks(waits: dict[int, list[int]], tableau: tuple[tuple[int, ...], ...]) -> frozenset[int]:
    """Each card some foundation waits for that has a card right on it, with
    that card: ``waited * 52 + blocker``."""
    found: list[int] = []
    waited = waits.keys()
    for pile in tableau:
        if waited.isdisjoint(pile):
            continue
        below = -1
        for card in pile:
            if below >= 0:
                found.append(below * 52 + card)
            below = card if card in waits else -1
    return frozenset(found)


def _fewest(
    lines: list[Chain],
    waits: dict[int, list[int]],
    tableau: tuple[tuple[int, ...], ...],
    moves: list[tuple[int, int]],
    *,
    blocks: frozenset[int],
    takers: dict[int, int],
) -> set[int]:
    """`fewest_foundations` worked out (with more than one foundation moved
    to), with sets of foundations as bit masks."""
    used = {foundation for _, foundation in moves}
    links = _links(lines, waits, moves, blocks, takers)
    cards = [(tableau[fan][-1], foundation) for fan, foundation in moves]
    suits = _by_suit(lines)
    for card, _ in cards:
        if card not in takers:
            takers[card] = _mask(_takers(suits, card))
    best = (1 << len(lines)) - 1
    best_count = len(moves)
    for start in used:
        closed = _with_key_move(_closed(1 << start, links), links, cards, _mask(used), takers)
        count = sum(1 for _, foundation in moves if closed >> foundation & 1)
        if count < best_count:
            best, best_count = closed, count
    return {index for index in range(len(lines)) if best >> index & 1}


def _mask(foundations: Iterable[int]) -> int:
    mask = 0
    for foundation in foundations:
        mask |= 1 << foundation
    return mask


def _links(
    lines: list[Chain],
    waits: dict[int, list[int]],
    moves: list[tuple[int, int]],
    blocks: frozenset[int],
    takers: dict[int, int],
) -> list[int]:
    """For each foundation, the foundations its moves depend on."""
    links = [0] * len(lines)
    by_fan: dict[int, list[int]] = {}
    for fan, foundation in moves:
        by_fan.setdefault(fan, []).append(foundation)
    for shared in by_fan.values():
        if len(shared) > 1:
            for foundation in shared:
                links[foundation] |= _mask(shared)
    suits: list[list[tuple[int, Chain]]] | None = None
    for block in blocks:
        waited, blocker = divmod(block, 52)
        if blocker not in takers:
            suits = suits or _by_suit(lines)
            takers[blocker] = _mask(_takers(suits, blocker))
        for foundation in waits[waited]:
            links[foundation] |= takers[blocker]
    return links


def _by_suit(lines: list[Chain]) -> list[list[tuple[int, Chain]]]:
    """Per suit, the chains of that suit with their foundation numbers."""
    suits: list[list[tuple[int, Chain]]] = [[], [], [], []]
    for index, chain in enumerate(lines):
        suits[chain[0]].append((index, chain))
    return suits


def _takers(suits: list[list[tuple[int, Chain]]], card: int) -> list[int]:
    """Foundations that may still take ``card`` some time; ``suits`` as from
    `_by_suit`."""
    suit, rank = divmod(card, 13)
    return [
        index
        for index, (_, start, down, height) in suits[suit]
        if ((start - rank) % 13 if down else (rank - start) % 13) >= height
    ]


def _with_key_move(
    closed: int,
    links: list[int],
    cards: list[tuple[int, int]],
    used: int,
    takers: dict[int, int],
) -> int:
    """``closed``, grown until it holds a move (``cards`` holds each move's
    card and foundation) that no move outside it can take away: one whose
    card no foundation outside may ever take (a key move).

    Without one, moves outside could send the only cards the set may take
    now to another foundation first, and reach positions with no move left
    that the set alone never reaches. With every move now inside the set,
    no move outside exists, and any move is key.
    """
    while used & ~closed:
        spare = 0
        for card, foundation in cards:
            if closed >> foundation & 1:
                outside = takers[card] & ~closed
                if not outside:
                    return closed
                spare = spare or outside
        closed = _closed(closed | spare, links)
    return closed


def _closed(start: int, links: list[int]) -> int:
    """The foundations in ``start`` and all they link to, in turn."""
    closed = todo = start
    while todo:
        low = todo & -todo
        todo ^= low
        linked = links[low.bit_length() - 1] & ~closed
        closed |= linked
        todo |= linked
    return closed


def blocked(rules: Rules, state: GameState) -> bool:
    """Whether some card left can never go home, whatever is played.

    A card can go onto a chain only after the card before it there, so a
    chain is out of reach for a card when every copy left of that card lies
    under it in its fan or is itself out of reach of the chain; repeating
    this until nothing changes, a card with no chain left, or two copies
    left with the same one chain left, can never both go home. With no
    redeal left, that loses the game.
    """
    lines = chains(rules, state)
    suits = _by_suit(lines)
    where: dict[int, list[tuple[int, int]]] = {}
    reach: dict[tuple[int, int], set[int]] = {}
    for fan, pile in enumerate(state.tableau):
        for depth, card in enumerate(pile):
            where.setdefault(card, []).append((fan, depth))
            reach[fan, depth] = set(_takers(suits, card))
    changed = True
    while changed:
        changed = False
        for (fan, depth), open_chains in reach.items():
            card = state.tableau[fan][depth]
            for index in list(open_chains):
                if not _has_before(
                    lines[index], index, card, (fan, depth), where=where, reach=reach
                ):
                    open_chains.discard(index)
                    changed = True
            if not open_chains:
                return True
    return any(
        len(spots) == 2 and len(reach[spots[0]] | reach[spots[1]]) < 2 for spots in where.values()
    )


def _has_before(
    chain: Chain,
    index: int,
    card: int,
    spot: tuple[int, int],
    *,
    where: dict[int, list[tuple[int, int]]],
    reach: dict[tuple[int, int], set[int]],
) -> bool:
    """Whether the card before ``card`` on the chain is home or may get there first."""
    suit, start, down, height = chain
    at = place(chain, card)
    if at == height:
        return True
    rank = (start - at + 1) % 13 if down else (start + at - 1) % 13
    return any(
        index in reach[other] and not (other[0] == spot[0] and other[1] < spot[1])
        for other in where.get(suit * 13 + rank, ())
    )
