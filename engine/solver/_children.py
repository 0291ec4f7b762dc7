"""The moves the search tries from a position, best first, and where they lead.

A child is ``(moves, state, moved)``: the engine moves of one search step
(several when the stock is drawn first), the position after them, and for a
tableau-to-tableau step ``(target pile, head card)`` so the next step does not
move that same run again (it could have gone straight to its final pile).

Order: a provably safe move home alone when there is one (see
`is_safe_home`), or in a greedy search any move home alone; otherwise moves
home, then runs that empty or expose, other runs, reserve and waste cards to
the tableau, waste plays after drawing, and last the deal of a new row.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine._stock import deal_row
from engine._tableau import run_length
from engine.moves import Move, Source
from engine.rules import Rules
from engine.solver._draws import after_taking, drawn_row, stock_points
from engine.solver._game import Game, home_heights, is_safe_home, known_targets, state_key
from engine.solver._stuck import has_stuck_card
from engine.state import GameState

Moved = tuple[int, int] | None
Child = tuple[tuple[Move, ...], GameState, Moved]
Targets = dict[int, list[int]]
DEAL = Move("deal")


def building_children(game: Game, state: GameState, moved: Moved) -> Iterator[Child]:
    """Children in a game that builds on the tableau, made as they are asked for."""
    rules = game.rules
    targets = known_targets(game, state)
    forced = _safe_child(rules, state, targets)
    if forced is None and game.greedy_home:
        forced = next(_home_children(state, targets), None)
    if forced is not None:
        yield forced
        return
    yield from _home_children(state, targets)
    yield from _run_children(game, state, targets, moved)
    yield from _single_children(game, state, "r")
    yield from _single_children(game, state, "w")
    if rules.stock == "draw":
        yield from _drawn_children(game, state, targets)
    elif rules.stock == "deal" and state.stock:
        dealt = deal_row(state)
        if not (game.stuck_cards and _stuck_for_good(game, dealt)):
            yield (DEAL,), dealt, None


def _stuck_for_good(game: Game, state: GameState) -> bool:
    """Whether the stock is out and some card can never leave its place."""
    if state.stock:
        return False
    key = state_key(game, state)
    known = game.stuck_known.get(key)
    if known is None:
        known = has_stuck_card(game.rules, state, home_heights(game.rules, state))
        game.stuck_known[key] = known
    return known


def _safe_child(rules: Rules, state: GameState, targets: Targets) -> Child | None:
    heights: list[list[int]] | None = None
    for src, index, card in _tops(state, include_waste=False):
        if card in targets:
            heights = heights or home_heights(rules, state)
            if is_safe_home(rules, state, card, heights):
                return _home_child(state, src, index, targets[card][0])
    return None


def _tops(state: GameState, include_waste: bool) -> list[tuple[Source, int, int]]:
    """``(source, pile index, card)`` of every playable top card."""
    tops: list[tuple[Source, int, int]] = [
        ("t", index, pile[-1]) for index, pile in enumerate(state.tableau) if pile
    ]
    if state.reserve:
        tops.append(("r", 0, state.reserve[-1]))
    if include_waste and state.waste:
        tops.append(("w", 0, state.waste[-1]))
    return tops


def _home_children(state: GameState, targets: Targets) -> Iterator[Child]:
    for src, index, card in _tops(state, include_waste=True):
        for foundation in targets.get(card, ()):
            yield _home_child(state, src, index, foundation)


def _home_child(state: GameState, src: Source, index: int, foundation: int) -> Child:
    tableau, waste, reserve = state.tableau, state.waste, state.reserve
    if src == "t":
        card = tableau[index][-1]
        tableau = (*tableau[:index], tableau[index][:-1], *tableau[index + 1 :])
    elif src == "w":
        card, waste = waste[-1], waste[:-1]
    else:
        card, reserve = reserve[-1], reserve[:-1]
    tops = state.foundations
    tops = (*tops[:foundation], card, *tops[foundation + 1 :])
    child = _rebuilt(state, tableau, tops, waste, reserve)
    return (Move("move", src, index, None, "f", foundation),), child, None


def _rebuilt(
    state: GameState,
    tableau: tuple[tuple[int, ...], ...],
    foundations: tuple[int, ...],
    waste: tuple[int, ...],
    reserve: tuple[int, ...],
) -> GameState:
    return state.evolve(tableau=tableau, foundations=foundations, waste=waste, reserve=reserve)


def _run_children(game: Game, state: GameState, targets: Targets, moved: Moved) -> Iterator[Child]:
    """Run moves, those that empty a pile first, then those exposing a card
    that goes home, then other whole runs, then split runs (only in a full
    search: a quick search drops them)."""
    rules, tableau = game.rules, state.tableau
    if game.piles_are_runs:
        runs = [len(pile) for pile in tableau]
    else:
        runs = [run_length(rules, pile) for pile in tableau]
    ranked: list[tuple[int, int, int, int]] = []
    for src, count, dst in _run_moves(game, tableau, runs):
        pile = tableau[src]
        if moved is not None and moved == (src, pile[-count]):
            continue
        if count == len(pile):
            rank = 0
        elif pile[-count - 1] in targets:
            rank = 1
        elif count == runs[src]:
            rank = 2
        elif game.quick:
            continue
        else:
            rank = 3
        ranked.append((rank, src, count, dst))
    ranked.sort()
    for _, src, count, dst in ranked:
        yield _run_child(state, src, count, dst)


def _run_moves(
    game: Game, tableau: tuple[tuple[int, ...], ...], runs: list[int]
) -> list[tuple[int, int, int]]:
    """``(source, count, target)`` of the run moves worth trying: never a
    whole pile into an empty one, and into one empty pile only when empty
    piles are interchangeable."""
    rules, to_empty = game.rules, game.to_empty
    wanted: dict[int, list[int]] = {}
    for dst, target in enumerate(tableau):
        if target:
            for card in rules.takers[target[-1]]:
                wanted.setdefault(card, []).append(dst)
    found: list[tuple[int, int, int]] = []
    empties = [dst for dst, pile in enumerate(tableau) if not pile]
    if game.sort_piles:
        empties = empties[:1]
    for src, pile in enumerate(tableau):
        run = runs[src]
        for count in range(1, run + 1):
            for dst in wanted.get(pile[-count], ()):
                if dst != src:
                    found.append((src, count, dst))
        if empties and len(pile) > 1:
            for count in range(1, min(run, len(pile) - 1) + 1):
                if to_empty[pile[-count]]:
                    found += [(src, count, dst) for dst in empties]
    return found


def _run_child(state: GameState, src: int, count: int, dst: int) -> Child:
    tableau = list(state.tableau)
    pile = tableau[src]
    head = pile[-count]
    tableau[dst] = tableau[dst] + pile[-count:]
    tableau[src] = pile[:-count]
    child = _rebuilt(state, tuple(tableau), state.foundations, state.waste, state.reserve)
    return (Move("move", "t", src, count, "t", dst),), child, (dst, head)


def _single_children(game: Game, state: GameState, src: Source) -> Iterator[Child]:
    """The reserve's or the waste's top onto each pile that takes it (onto one
    empty pile only, where piles are interchangeable)."""
    pile = state.reserve if src == "r" else state.waste
    if not pile:
        return
    card = pile[-1]
    rest = pile[:-1]
    waste, reserve = (rest, state.reserve) if src == "w" else (state.waste, rest)
    for dst in _fitting(game, state.tableau, _takers(game, state.tableau), card):
        target = state.tableau[dst]
        tableau = (*state.tableau[:dst], (*target, card), *state.tableau[dst + 1 :])
        child = _rebuilt(state, tableau, state.foundations, waste, reserve)
        yield (Move("move", src, 0, None, "t", dst),), child, None


def _takers(game: Game, tableau: tuple[tuple[int, ...], ...]) -> tuple[frozenset[int], ...]:
    """Per pile, the cards its top takes (an empty pile's entry is empty:
    see `_fitting`)."""
    takers = game.rules.takers
    return tuple(takers[pile[-1]] if pile else frozenset() for pile in tableau)


def _fitting(
    game: Game,
    tableau: tuple[tuple[int, ...], ...],
    takers: tuple[frozenset[int], ...],
    card: int,
) -> Iterator[int]:
    """The piles that take ``card``, in pile order: those whose top takes
    it, and empty piles when an empty pile takes it (only the first where
    piles are interchangeable)."""
    to_empty = game.to_empty[card]
    for dst, pile in enumerate(tableau):
        if pile:
            if card in takers[dst]:
                yield dst
        elif to_empty:
            yield dst
            to_empty = not game.sort_piles


def _drawn_children(game: Game, state: GameState, targets: Targets) -> Iterator[Child]:
    """Waste plays after drawing: first every one that goes home, then the rest."""
    rules = game.rules
    points = stock_points(rules, state)
    if not points:
        return
    row = drawn_row(state)
    takers = _takers(game, state.tableau)
    for point in points:
        card = row[point[1] - 1]
        for foundation in targets.get(card, ()):
            tops = state.foundations
            tops = (*tops[:foundation], card, *tops[foundation + 1 :])
            move = Move("move", "w", 0, None, "f", foundation)
            yield (*point[0], move), after_taking(state, row, point, foundations=tops), None
    for point in points:
        card = row[point[1] - 1]
        for dst in _fitting(game, state.tableau, takers, card):
            target = state.tableau[dst]
            tableau = (*state.tableau[:dst], (*target, card), *state.tableau[dst + 1 :])
            move = Move("move", "w", 0, None, "t", dst)
            yield (*point[0], move), after_taking(state, row, point, tableau=tableau), None
