"""Whether a card can still go home, against hand-made positions whose answer
is known and an exhaustive search that shares no code with the walk."""

import random
from collections import deque

import pytest

from engine import GameState, Move, Outcome, apply, find_variant, legal_moves, new_game, outcome
from engine import progress as cards_home
from engine.solver import Budget
from engine.solver.dead_end import Reach, reach_home
from tests.engine._positions import (
    BILLIE,
    CANFIELD,
    MILLIGAN,
    double_canfield,
    little_forty,
    little_milligan,
)

BUDGET = Budget(nodes=50_000)
KINGS = ["Kd", "Kd", "Kh", "Kh", "Ks", "Ks", "Kc", "Kc"]


def home_reachable(start: GameState) -> bool:
    """Every position reachable by moves that send no card home, listed in full."""
    unlimited = find_variant(start.variant).passes is None
    seen = {start.evolve(passes=0) if unlimited else start}
    queue = deque([start])
    while queue:
        moves = legal_moves(state := queue.popleft())
        if any(move.dst == "f" for move in moves):
            return True
        for move in moves:
            child = apply(state, move)
            plain = child.evolve(passes=0) if unlimited else child
            if plain not in seen:
                seen.add(plain)
                queue.append(child)
    return False


def checked(state: GameState) -> Reach:
    """The walk's answer, after checking it is decided, agrees with the full
    listing, and (for "can") that its line replays to a card going home."""
    reach = reach_home(state, BUDGET)
    assert reach.answer != "undecided"
    assert (reach.answer == "can") == home_reachable(state)
    if reach.answer == "can":
        for text in reach.moves:
            before, state = state, apply(state, Move.parse(text))
        assert cards_home(state) == cards_home(before) + 1
    return reach


def test_a_card_that_goes_home_now_is_found_at_once() -> None:
    state = little_milligan(["Jc 5d", "Js"], foundations=["Tc", "Kd", "Kh", "Ts"])
    assert checked(state) == Reach("can", ("t2:1 f4",), 1)


def test_a_stuck_game_cannot_put_a_card_home() -> None:
    state = little_milligan(["Jc 5d", "Js 9h"], foundations=["Tc", "Kd", "Kh", "Ts"])
    assert outcome(state) == Outcome.STUCK
    assert legal_moves(state) == []
    assert checked(state) == Reach("cannot", (), 1)


def test_moves_that_only_shuffle_between_piles_are_a_dead_end() -> None:
    """The eight of spades goes back and forth between the nines, and the
    waste's Queen onto any King; the Jacks the foundations want stay buried."""
    state = little_forty(
        ["Jc 9h 8s", "Js 9d", *KINGS],
        foundations=["Tc", "Tc", "Ts", "Ts", "Kd", "Kd", "Kh", "Kh"],
        waste="Qh",
        passes=2,
    )
    assert outcome(state) == Outcome.PLAYING
    assert len(legal_moves(state)) > 2
    reach = checked(state)
    assert reach.answer == "cannot"
    assert reach.nodes > 2


def test_a_card_home_a_few_moves_away_is_found_with_its_line() -> None:
    """The run on the Jack of clubs goes into the free pile, and the Jack home."""
    state = little_forty(
        ["Jc 9h 8s", "Js 9d", *KINGS[:7]],
        foundations=["Tc", "Tc", "Ts", "Ts", "Kd", "Kd", "Kh", "Kh"],
        passes=2,
    )
    reach = checked(state)
    assert reach == Reach("can", ("t1:2 t10", "t1:1 f1"), 4)


def test_the_stock_counts_however_many_turns_it_takes() -> None:
    """The Jack of clubs never tops the waste in this pass; once the Queen
    drawn before it is played onto a King, it does in the next one."""
    state = little_forty(
        ["Js 7h", *KINGS, "Ks"],
        foundations=["Tc", "Tc", "Ts", "Ts", "Kd", "Kd", "Kh", "Kh"],
        stock="4d Jc Qh 3d 2d",
        passes=1,
    )
    reach = checked(state)
    assert reach.answer == "can"
    assert "recycle" in reach.moves
    assert reach.moves[-1] == "w f1"


def test_a_canfield_reserve_dead_end() -> None:
    state = double_canfield(
        ["Qc Kc", "Qc Kc", "Qs Ks", "Qs Ks", "Qd Kd", "Qh Kh"],
        foundations=["Jc", "Jc", "Jd", "Jd", "Jh", "Jh", "Js", "Js"],
        reserve="Qh Kh Qd Kd",
    )
    assert checked(state).answer == "cannot"


def test_a_node_budget_is_never_exceeded() -> None:
    state = little_forty(
        ["Jc 9h 8s", "Js 9d", *KINGS],
        foundations=["Tc", "Tc", "Ts", "Ts", "Kd", "Kd", "Kh", "Kh"],
        waste="Qh",
        passes=2,
    )
    assert reach_home(state, Budget(nodes=2)) == Reach("undecided", (), 2)


def test_the_walk_stops_soon_after_the_time_is_up() -> None:
    """Three runs split over seven free piles in many ways; no Jack is there."""
    calls: list[int] = []

    def expired() -> bool:
        calls.append(1)
        return len(calls) > 2

    state = little_forty(
        ["9h 8s 7h 6s 5h", "9d 8c 7d 6c 5d", "4s 3h 2s", "Qd", "Qh"],
        foundations=["Tc", "Tc", "Ts", "Ts", "Kd", "Kd", "Kh", "Kh"],
        passes=2,
    )
    reach = reach_home(state, Budget(expired=expired))
    assert reach.answer == "undecided"
    assert len(calls) == 3
    assert reach.nodes == 3 * 32


def walked(variant: str, deal: int, rng: random.Random, steps: int) -> GameState:
    """A public deal after ``steps`` random moves, a card home whenever one can go."""
    state = new_game(variant, b"deal:%d" % deal)
    for _ in range(steps):
        moves = legal_moves(state)
        if not moves:
            break
        home = [move for move in moves if move.dst == "f"]
        state = apply(state, rng.choice(home or moves))
    return state


WALKED = [(MILLIGAN, range(1, 13)), (BILLIE, range(1, 13)), (CANFIELD, range(1, 13))]


@pytest.mark.parametrize(("variant", "deals"), WALKED)
def test_positions_from_real_deals_get_the_exhaustive_answer(variant: str, deals: range) -> None:
    rng = random.Random(f"dead end {variant}")
    answers = [checked(walked(variant, deal, rng, rng.randrange(10, 120))).answer for deal in deals]
    assert "can" in answers
    assert variant == CANFIELD or "cannot" in answers
