"""Whether Little Billie's last deal can be cleared, decided by choosing
which copy of each card goes onto which chain.

Theory of operation: with no redeal left, every card left must go home, and
each chain takes one copy of each card it still needs, so a win gives each
copy a chain (twin copies go to the two chains of their suit). Given that
choice, a copy must leave after the copy above it in its fan and after the
copy before it on its chain; a play that wins exists exactly when these
"before" links have no cycle (a topological order of them is a legal line
of moves, and any winning line is such an order). So the fans can be
cleared exactly when some choice leaves the links without a cycle, which is
decided here by trying choices, a pair of twins at a time, with a choice
ruled out as soon as it closes a cycle.

Each copy is a node numbered from 0; what each node must come before is
kept closed under "before" as a bit mask per node, so a link closes a cycle
exactly when its target already comes before its source.
"""

from __future__ import annotations

from engine.rules import Rules
from engine.solver._chains import Chain, chains, place
from engine.state import GameState

TRIES = 5_000
"""Choices tried before giving up: about a CPU second at most."""
Slot = tuple[int, int]
"""``(chain index, place on it)``."""
Choice = tuple[tuple[Slot, int], ...]
"""Copies put into slots together."""


def can_clear(rules: Rules, state: GameState, limit: int = TRIES) -> bool | None:
    """Whether every card left can go home with no redeal; None when that
    is not found out within ``limit`` choices tried, or when the cards left
    are not the ones the chains still need (never so in a dealt game)."""
    lines = chains(rules, state)
    nodes: dict[int, list[int]] = {}
    after: list[int] = []
    for pile in state.tableau:
        for depth, card in enumerate(pile):
            nodes.setdefault(card, []).append(len(after))
            after.append(0)
            if depth:
                after[-1] |= 1 << (len(after) - 2)
    _close(after)
    choices = _choices(lines, nodes)
    if choices is None:
        return None
    tries = [limit]
    try:
        return _search(after, {}, choices, tries)
    except _OutOfTries:
        return None


def _close(after: list[int]) -> None:
    """Close each node's mask of nodes it must come before (fan links go
    from a copy to the one beneath it, numbered lower, so one pass from the
    lowest number up does)."""
    for node in range(len(after)):
        mask, todo = after[node], after[node]
        while todo:
            low = todo & -todo
            todo ^= low
            mask |= after[low.bit_length() - 1]
        after[node] = mask


def _choices(lines: list[Chain], nodes: dict[int, list[int]]) -> list[list[Choice]] | None:
    """For each card left, the ways of putting its copies onto the chains
    that need it; None when the copies and the chains needing them differ
    in number."""
    needed: dict[int, list[Slot]] = {}
    for index, chain in enumerate(lines):
        suit, _, _, height = chain
        for rank in range(13):
            card = suit * 13 + rank
            at = place(chain, card)
            if at >= height:
                needed.setdefault(card, []).append((index, at))
    if needed.keys() != nodes.keys():
        return None
    choices: list[list[Choice]] = []
    for card, slots in needed.items():
        copies = nodes[card]
        if len(copies) != len(slots):
            return None
        if len(slots) == 1:
            choices.append([((slots[0], copies[0]),)])
        else:
            first, second = slots
            one, other = copies
            choices.append([((first, one), (second, other)), ((first, other), (second, one))])
    # Tried backwards: the cards only a down chain needs, then the suits
    # from spades back to clubs, each from its King down. On the deals
    # measured this closes cycles far sooner than the other way round
    # (deal 12's last deals in 0.2 CPU seconds instead of 2).
    choices.reverse()
    return choices


def _search(
    after: list[int], filled: dict[Slot, int], choices: list[list[Choice]], tries: list[int]
) -> bool:
    """Whether some way of making the open ``choices`` adds no cycle.

    A way that closes a cycle does so still once more links are added, so
    it is dropped for good; a choice left with one way is made at once.
    ``tries`` holds how many more choices may be tried.
    """
    tries[0] -= 1
    if tries[0] < 0:
        raise _OutOfTries
    progress = True
    while progress:
        progress = False
        still_open: list[list[Choice]] = []
        for ways in choices:
            kept = [(way, made) for way in ways if (made := _put(after, filled, way))]
            if not kept:
                return False
            if len(kept) == 1:
                after, filled = kept[0][1]
                progress = True
            else:
                still_open.append([way for way, _ in kept])
        choices = still_open
    if not choices:
        return True
    first, rest = choices[0], choices[1:]
    for way in first:
        made = _put(after, filled, way)
        if made is not None and _search(*made, rest, tries):
            return True
    return False


def _put(
    after: list[int], filled: dict[Slot, int], way: Choice
) -> tuple[list[int], dict[Slot, int]] | None:
    """The masks and slots once ``way`` puts its copies in place, or None
    when that closes a cycle."""
    after = list(after)
    filled = dict(filled)
    for (chain, at), node in way:
        filled[chain, at] = node
        for source, target in (
            (filled.get((chain, at - 1)), node),
            (node, filled.get((chain, at + 1))),
        ):
            if source is None or target is None:
                continue
            if source == target or after[target] >> source & 1:
                return None
            _link(after, source, target)
    return after, filled


def _link(after: list[int], source: int, target: int) -> None:
    """Add "``source`` before ``target``" and keep every mask closed."""
    gained = after[target] | 1 << target
    bit = 1 << source
    for node, mask in enumerate(after):
        if node == source or mask & bit:
            after[node] = mask | gained


class _OutOfTries(Exception):
    """The choices allowed were all tried."""
