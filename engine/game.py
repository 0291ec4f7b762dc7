"""Playing a game: the deal, validated moves, and replaying a race."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NoReturn, TypeVar

from engine import _foundation, _stock
from engine._layout import deal_out
from engine._tableau import count_to_move, misfit, takes, whole_pile_hint
from engine.cards import format_card
from engine.deal import MAX_SEED_BYTES, shuffled_cards
from engine.errors import EngineError, IllegalMove, InvalidMove, NoEffect
from engine.moves import Move
from engine.rules import Rules
from engine.state import GameState
from engine.variants import find_variant

_T = TypeVar("_T")
Piles = tuple[tuple[int, ...], ...]


def new_game(variant: str, seed: bytes, option: str = "") -> GameState:
    """The deal of ``seed`` (1 to 64 bytes) for ``variant``, played under its rule
    ``option`` (``""``: as ruled). An option changes rules, never the shuffles."""
    rules = find_variant(variant, option)
    if not isinstance(seed, bytes) or not 1 <= len(seed) <= MAX_SEED_BYTES:
        raise EngineError(f"a seed is 1 to {MAX_SEED_BYTES} bytes")
    return deal_out(rules, shuffled_cards(seed, variant, "deal/0", rules.decks), seed)


def replay(variant: str, seed: bytes, moves: Iterable[Move | str], option: str = "") -> GameState:
    """The deal of ``seed``, then each move in turn (as a `Move` or its text)."""
    state = new_game(variant, seed, option)
    for move in moves:
        state = apply(state, Move.parse(move) if isinstance(move, str) else move)
    return state


def apply(state: GameState, move: Move) -> GameState:
    """The state after ``move``; the same state for a legal move that changes nothing
    (`play` refuses that one).

    Raises `InvalidMove` for a malformed move or one naming a pile or action
    the variant lacks, and `IllegalMove` when the move is not legal now.
    """
    rules = find_variant(state.variant, state.option)
    action = move.action
    if action == "move":
        _check_shape(rules, move)
        if move.src == "t" and move.dst == "t":
            return _move_run(rules, state, move)
        return _move_card(rules, state, move)
    if move.src is not None or move.dst is not None or move.count is not None:
        raise InvalidMove(f"a {action!r} move names no piles")
    if action in {"draw", "recycle"}:
        if rules.stock != "draw":
            raise InvalidMove(f"{rules.name} has no waste, so no {action!r} move")
        return _stock.draw(rules, state) if action == "draw" else _stock.recycle(rules, state)
    if action == "deal":
        if rules.stock != "deal":
            raise InvalidMove(f"{rules.name} has no stock that deals a row onto the piles")
        return _stock.deal_row(state)
    if action == "redeal":
        if not rules.has_redeal:
            raise InvalidMove(f"{rules.name} has no redeal")
        return _stock.redeal(rules, state)
    raise InvalidMove(f"unknown action {action!r}")


def play(state: GameState, move: Move) -> GameState:
    """The state after a move a player makes now: as `apply`, but a legal move
    that changes nothing raises `NoEffect`, saying what to send instead.

    The only such move is a whole pile onto an empty pile (docs/rules.md).
    `legal_moves` lists exactly the moves this accepts; `apply` stays lenient so
    that any log of moves once accepted still replays.
    """
    after = apply(state, move)
    if after is not state:  # `apply` hands back ``state`` itself for that move alone
        return after
    rules, src = find_variant(state.variant, state.option), move.src_index
    raise NoEffect(whole_pile_hint(rules, state.tableau[src], src, move.dst_index or 0))


def _check_shape(rules: Rules, move: Move) -> None:
    """Refuse, as malformed, a move naming a pile the variant lacks."""
    src, dst = move.src, move.dst
    if src == "t":
        index = move.src_index
        if index is None or not 0 <= index < rules.piles:
            _refuse_index(index, rules.piles, "tableau pile")
    elif src == "w":
        if rules.stock != "draw":
            raise InvalidMove(f"{rules.name} has no waste pile")
    elif src == "r":
        if not rules.reserve:
            raise InvalidMove(f"{rules.name} has no reserve")
    else:
        raise InvalidMove("a move starts from a tableau pile, the waste or the reserve")
    if move.count is not None and (src != "t" or move.count < 1):
        raise InvalidMove("a card count belongs only to a move from a tableau pile")
    target = move.dst_index
    if dst == "t":
        if target is None or not 0 <= target < rules.piles:
            _refuse_index(target, rules.piles, "tableau pile")
    elif dst == "f":
        if target is not None and not 0 <= target < rules.foundations:
            _refuse_index(target, rules.foundations, "foundation")
    else:
        raise InvalidMove("a move goes to a tableau pile or a foundation")


def _refuse_index(index: int | None, size: int, what: str) -> NoReturn:
    shown = "none" if index is None else index + 1
    raise InvalidMove(f"there is no {what} {shown}; they are numbered 1 to {size}")


def _move_card(rules: Rules, state: GameState, move: Move) -> GameState:
    card, tableau, waste, reserve = _take_one(state, move)
    foundations = state.foundations
    if move.dst == "f":
        index = _foundation_for(rules, state, card, move.dst_index)
        foundations = _replaced(foundations, index, card)
    else:
        tableau = _placed(rules, tableau, move.dst_index or 0, card)
    return state.evolve(tableau=tableau, foundations=foundations, waste=waste, reserve=reserve)


def _take_one(state: GameState, move: Move) -> tuple[int, Piles, tuple[int, ...], tuple[int, ...]]:
    """The top card of the move's source, and tableau, waste and reserve without it."""
    tableau, waste, reserve = state.tableau, state.waste, state.reserve
    if move.src == "t":
        pile = _source_pile(state, move.src_index)
        if move.count is not None and move.count != 1:
            raise IllegalMove("cards go to a foundation one at a time")
        return pile[-1], _replaced(tableau, move.src_index, pile[:-1]), waste, reserve
    if move.src == "w":
        if not waste:
            raise IllegalMove("the waste pile is empty")
        return waste[-1], tableau, waste[:-1], reserve
    if not reserve:
        raise IllegalMove("the reserve is empty")
    return reserve[-1], tableau, waste, reserve[:-1]


def _source_pile(state: GameState, index: int) -> tuple[int, ...]:
    pile = state.tableau[index]
    if not pile:
        raise IllegalMove(f"tableau pile {index + 1} is empty")
    return pile


def _move_run(rules: Rules, state: GameState, move: Move) -> GameState:
    if rules.build is None:
        raise IllegalMove(f"in {rules.name} nothing is built on the tableau; tops go home")
    src, dst = move.src_index, move.dst_index or 0
    if src == dst:
        raise IllegalMove("a pile cannot move onto itself")
    pile, target = _source_pile(state, src), state.tableau[dst]
    count = count_to_move(rules, pile, target, move.count)
    if count == len(pile) and not target:
        return state
    tableau = list(state.tableau)
    tableau[src] = pile[:-count]
    tableau[dst] = target + pile[-count:]
    return state.evolve(tableau=tuple(tableau))


def _foundation_for(rules: Rules, state: GameState, card: int, index: int | None) -> int:
    if index is None:
        found = _foundation.first_fit(rules, state, card)
        if found < 0:
            raise IllegalMove(f"{format_card(card)} fits on no foundation")
        return found
    if not _foundation.accepts(rules, state.base_rank, index, state.foundations[index], card):
        raise IllegalMove(f"{format_card(card)} does not go on foundation {index + 1}")
    return index


def _placed(rules: Rules, tableau: Piles, index: int, card: int) -> Piles:
    if rules.build is None:
        raise IllegalMove(f"in {rules.name} nothing is built on the tableau")
    target = tableau[index]
    if not takes(rules, target, card):
        raise IllegalMove(misfit(rules, target, card))
    return _replaced(tableau, index, (*target, card))


def _replaced(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*items[:index], value, *items[index + 1 :])
