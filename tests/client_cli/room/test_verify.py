"""Checking a finished race: the commit, the public deal and every replayed log."""

from __future__ import annotations

import hashlib

import engine
from client_cli.room.verify import check_race, seed_matches
from tests.client_cli._samples import board, log, race_over, result

SEED = b"deal:4"
COMMIT = hashlib.sha256(SEED).hexdigest()


def _moves(count: int) -> tuple[str, ...]:
    state, moves = engine.new_game("little-forty", SEED), list[str]()
    for _ in range(count):
        move = engine.legal_moves(state)[0]
        state = engine.apply(state, move)
        moves.append(move.format())
    return tuple(moves)


def _cards_home(moves: tuple[str, ...]) -> int:
    return engine.progress(engine.replay("little-forty", SEED, moves))


def _home(cards: int) -> str:
    return "1 card" if cards == 1 else f"{cards} cards"


def test_an_honest_race_checks_out() -> None:
    moves = _moves(12)
    cards = _cards_home(moves)
    ranking = (
        result(1, 0, "Ada", progress=cards, moves=12, log=log(*moves)),
        result(2, 1, "Bob", log=log()),
    )
    mine = board("little-forty", SEED, moves)
    lines = check_race(race_over(ranking, SEED, seed_commit=COMMIT), "little-forty", 4, 0, mine)
    assert lines[0].startswith(f"Seed {SEED.hex()[:16]}... matches the commit")
    assert lines[1] == "The seed is public deal 4, as announced."
    assert lines[2] == f"Replayed your 12 moves: {_home(cards)} home, agrees."
    assert lines[3] == "Replayed Bob's 0 moves: 0 cards home, agrees."


def test_a_wrong_commit_and_a_wrong_deal_are_flagged() -> None:
    over = race_over((result(1, 0, "Ada"),), SEED, seed_commit="00" * 32)
    lines = check_race(over, "little-forty", deal_number=5)
    assert lines[0].startswith("WARNING: sha256(seed) is not the commit")
    assert lines[1] == "WARNING: the seed is not public deal 5."
    assert not seed_matches(SEED, "00" * 32) and seed_matches(SEED, COMMIT)


def test_results_the_logs_do_not_support_are_flagged() -> None:
    moves = _moves(6)
    cards = _cards_home(moves)
    ranking = (
        result(1, 0, "Ada", outcome="won", progress=cards, log=log(*moves)),
        result(2, 1, "Bob", progress=cards + 1, log=log(*moves)),
        result(3, 2, "Cy", log=log("t9 f", "redeal")),
    )
    lines = check_race(race_over(ranking, SEED, seed_commit=COMMIT), "little-forty")
    assert lines[1] == "WARNING: Ada's replay ends playing, but the ranking says won."
    assert lines[2] == f"WARNING: Bob's replay ends with {_home(cards)} home, not {cards + 1}."
    assert lines[3].startswith("WARNING: Cy's moves do not replay:")


def test_your_own_replay_must_end_on_the_board_you_saw() -> None:
    moves = _moves(3)
    ranking = (result(1, 0, "Ada", progress=_cards_home(moves), log=log(*moves)),)
    earlier = board("little-forty", SEED, moves[:2])
    lines = check_race(
        race_over(ranking, SEED, seed_commit=COMMIT), "little-forty", None, 0, earlier
    )
    assert lines[-1] == (
        "WARNING: your replay ends on a different board than the one you last saw."
    )
