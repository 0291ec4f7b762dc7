"""Little Billie's foundations as chains: which of their moves need trying,
and when a last deal can never be cleared.

Each foundation is a chain of one suit in one direction that takes one copy
of each rank in turn. A card's place in a chain is how many cards come
before it there; a chain's height is how many it holds, so a card fits when
its place equals the height and is on the chain when its place is lower.
"""

from __future__ import annotations

from engine import _foundation
from engine.rules import Rules
from engine.state import EMPTY, GameState

Chain = tuple[int, int, bool, int]
"""``(suit, start rank index, down, height)``."""
FULL = 13
NONE = 52
"""No card: what a full chain takes."""


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


class Table:
    """The chains in tables for the search, which keeps each chain as its
    height alone (one byte per foundation): the card each chain takes at
    each height, and for each card the chains of its suit with its place
    on each."""

    def __init__(self, rules: Rules, state: GameState) -> None:
        lines = chains(rules, state)
        self.decks = rules.decks
        self.count = len(lines)
        self.start = bytes(chain[3] for chain in lines)
        """The chain heights of ``state``."""
        self.want = tuple(
            (*(suit * 13 + (start - at if down else start + at) % 13 for at in range(FULL)), NONE)
            for suit, start, down, _ in lines
        )
        """Per chain, the card it takes at each height (`NONE` when full)."""
        suits: list[list[tuple[int, int]]] = [[] for _ in range(NONE + 1)]
        for index, chain in enumerate(lines):
            for rank in range(13):
                card = chain[0] * 13 + rank
                suits[card].append((index, place(chain, card)))
        self.suits = tuple(map(tuple, suits))
        """Per card, the chains of its suit, each with the card's place there."""
        self.rivals = tuple(
            tuple(
                tuple((other, at) for other, at in self.suits[card] if other != index)
                for card in want
            )
            for index, want in enumerate(self.want)
        )
        """Per chain and height, the other chains of the suit of the card it
        takes, each with that card's place there."""

    def tops(self, heights: bytes) -> tuple[int, ...]:
        """The foundations' top cards for these chain heights."""
        return tuple(
            EMPTY if height == 0 else self.want[index][height - 1]
            for index, height in enumerate(heights)
        )

    def takers(self, card: int, heights: bytes) -> int:
        """The chains that may still take ``card`` some time, as a bit mask."""
        mask = 0
        for index, at in self.suits[card]:
            if at >= heights[index]:
                mask |= 1 << index
        return mask

    def forced(self, heights: bytes, moves: list[tuple[int, int]]) -> tuple[int, int] | None:
        """The first of ``moves`` whose card is the last copy out and fits
        one foundation, if any."""
        last = self.decks - 1
        for move in moves:
            foundation = move[1]
            home = 0
            for other, at in self.rivals[foundation][heights[foundation]]:
                height = heights[other]
                if at == height:
                    break
                home += at < height
            else:
                if home == last:
                    return move
        return None


Choices = dict[tuple[bytes, tuple[int, ...], frozenset[int]], int]
"""`fewest_foundations` answers by chain heights, foundations and blocks."""


def fewest_foundations(
    table: Table,
    heights: bytes,
    moves: list[tuple[int, int]],
    blocks: frozenset[int],
    memo: Choices,
) -> int:
    """The foundations whose moves alone need trying, as a bit mask: a
    closed set with the fewest moves now (a stubborn set, in partial-order
    reduction terms), given the chain heights, the moves as ``(fan,
    foundation)`` (onto two foundations or more) and ``blocks``: each
    foundation that waits for a card with a card right on it, with that
    card (``foundation * 52 + blocker``).

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
    go to, in their order, and on the blocks, so it is remembered by these
    in ``memo``: far fewer than the positions searched.
    """
    key = (heights, tuple([foundation for _, foundation in moves]), blocks)
    chosen = memo.get(key)
    if chosen is None:
        chosen = memo[key] = _fewest(table, heights, moves, blocks)
    return chosen


def _fewest(
    table: Table, heights: bytes, moves: list[tuple[int, int]], blocks: frozenset[int]
) -> int:
    used = 0
    keys: list[tuple[int, int]] = []
    for _, foundation in moves:
        used |= 1 << foundation
        keys.append(
            (foundation, table.takers(table.want[foundation][heights[foundation]], heights))
        )
    links = _links(table, heights, moves, blocks)
    best = (1 << table.count) - 1
    best_count = len(moves)
    for start in range(table.count):
        if used >> start & 1:
            closed = _with_key_move(_closed(1 << start, links), links, keys, used)
            count = 0
            for foundation, _ in keys:
                count += closed >> foundation & 1
            if count < best_count:
                best, best_count = closed, count
                if count == 1:
                    break
    return best


def _links(
    table: Table, heights: bytes, moves: list[tuple[int, int]], blocks: frozenset[int]
) -> list[int]:
    """For each foundation, the foundations its moves depend on."""
    links = [0] * table.count
    last_fan = -1
    for index, (fan, foundation) in enumerate(moves):
        if fan == last_fan:
            shared = 1 << foundation | 1 << moves[index - 1][1]
            links[foundation] |= shared
            links[moves[index - 1][1]] |= shared
        last_fan = fan
    for block in blocks:
        foundation, blocker = divmod(block, 52)
        links[foundation] |= table.takers(blocker, heights)
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


def _with_key_move(closed: int, links: list[int], keys: list[tuple[int, int]], used: int) -> int:
    """``closed``, grown until it holds a move (``keys`` holds each move's
    foundation and the foundations that may take its card) that no move
    outside it can take away: one whose card no foundation outside may
    ever take (a key move).

    Without one, moves outside could send the only cards the set may take
    now to another foundation first, and reach positions with no move left
    that the set alone never reaches. With every move now inside the set,
    no move outside exists, and any move is key.
    """
    while used & ~closed:
        spare = 0
        for foundation, takers in keys:
            if closed >> foundation & 1:
                outside = takers & ~closed
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
