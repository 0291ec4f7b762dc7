"""Runs and building on the tableau."""

from __future__ import annotations

from collections.abc import Iterator

from engine.cards import format_card
from engine.errors import IllegalMove
from engine.rules import Rules

Pile = tuple[int, ...]


def run_length(rules: Rules, pile: Pile) -> int:
    """How many cards from the top of ``pile`` move as one run."""
    stacks = rules.stacks
    size = len(pile)
    count = 1 if size else 0
    while count < size and stacks[pile[-count - 1] * 52 + pile[-count]]:
        count += 1
    return count


def run_moves(rules: Rules, tableau: tuple[Pile, ...]) -> Iterator[tuple[int, int, int]]:
    """``(source, count, target)`` of every run move that changes the tableau,
    by source pile, then target pile, then size."""
    stacks = rules.stacks
    for src, pile in enumerate(tableau):
        run = run_length(rules, pile)
        for dst, target in enumerate(tableau):
            if dst == src:
                continue
            if target:
                under = target[-1] * 52
                for count in range(1, run + 1):
                    if stacks[under + pile[-count]]:
                        yield src, count, dst
            else:
                for count in range(1, min(run, len(pile) - 1) + 1):
                    if takes(rules, target, pile[-count]):
                        yield src, count, dst


def takes(rules: Rules, target: Pile, head: int) -> bool:
    """Whether ``target`` takes a card or run headed by ``head``."""
    if target:
        return bool(rules.stacks[target[-1] * 52 + head])
    if rules.empty_pile == "any":
        return True
    return rules.empty_pile == "king" and head % 13 == 12


def count_to_move(rules: Rules, pile: Pile, target: Pile, count: int | None) -> int:
    """The number of cards a move from ``pile`` onto ``target`` takes: exactly
    ``count``, or with ``None`` the longest run that fits."""
    run = run_length(rules, pile)
    if count is None:
        for size in range(run, 0, -1):
            if takes(rules, target, pile[-size]):
                return size
        raise IllegalMove(misfit(rules, target, pile[-1]) + ", nor does any run under it")
    if count > len(pile):
        raise IllegalMove(f"the pile holds only {len(pile)} card(s), not {count}")
    if count > run:
        raise IllegalMove(f"the top {count} cards of the pile do not form a run")
    if not takes(rules, target, pile[-count]):
        raise IllegalMove(misfit(rules, target, pile[-count]))
    return count


def whole_pile_hint(rules: Rules, pile: Pile, src: int, dst: int) -> str:
    """Why moving all of ``pile`` (tableau pile ``src``) onto the empty pile ``dst``
    is pointless, and the largest part of it the player could move there instead."""
    where = f"pile {src + 1}"
    what = f"the only card of {where}" if len(pile) == 1 else f"all {len(pile)} cards of {where}"
    said = f"moving {what} onto empty pile {dst + 1} changes nothing"
    most = min(run_length(rules, pile), len(pile) - 1)
    for count in range(most, 0, -1):
        if takes(rules, (), pile[-count]):
            return f"{said}; to move part of it give a count, e.g. t{src + 1}:{count} t{dst + 1}"
    return said if len(pile) == 1 else f"{said}, and no part of it may go there"


def misfit(rules: Rules, target: Pile, head: int) -> str:
    """Why ``target`` does not take a card or run headed by ``head``."""
    if target:
        return f"{format_card(head)} does not go on {format_card(target[-1])}"
    if rules.empty_pile == "king":
        return f"an empty pile takes only a King or a run headed by one, not {format_card(head)}"
    return "nothing may be placed on an empty pile"
