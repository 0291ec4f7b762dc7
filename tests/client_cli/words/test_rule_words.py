"""The line naming a room's redeal rule: in the lobby and the results, in line
mode and in the TUI; and the replay check under the room's rule option."""

from __future__ import annotations

import hashlib

import engine
from client_cli.room.verify import check_race
from client_cli.tui.texts import lobby_lines, results_lines
from client_cli.words.render import render_ranking, render_room
from client_cli.words.rule_words import redeal_rule
from protocol import RaceOver, RoomSnapshot, Settings
from tests.client_cli._samples import log, race_over, result, room

BILLIE, UNLIMITED = "little-billie", "unlimited-redeals"
STANDARD = "Redeals: 2 in all, when no fan's top card fits (the standard rules)"
UNTIL_BLOCKED = (
    "Redeals: unlimited until blocked - redeal whenever no fan's top card fits;"
    " a redeal that leaves none fitting ends the game"
)
SEED = b"deal:1"


def billie_room(option: str = "") -> RoomSnapshot:
    return room(variant=BILLIE, settings=Settings(rule_option=option))


def test_the_rule_is_named_for_little_billie_alone() -> None:
    assert redeal_rule(BILLIE, "") == STANDARD
    assert redeal_rule(BILLIE, UNLIMITED) == UNTIL_BLOCKED
    for variant in ("little-forty", "little-milligan", "double-canfield-40"):
        assert redeal_rule(variant, "") == ""


def test_the_line_mode_lobby_names_the_rule_under_the_deal() -> None:
    lines = render_room(billie_room(UNLIMITED)).splitlines()
    assert lines[1].startswith("Deal: ")
    assert lines[2] == UNTIL_BLOCKED
    assert render_room(billie_room()).splitlines()[2] == STANDARD
    assert "Redeals" not in render_room(room())


def test_the_tui_lobby_names_the_rule_under_the_game() -> None:
    texts = [line.plain for line in lobby_lines(billie_room(UNLIMITED), 0)]
    game = next(at for at, text in enumerate(texts) if text.startswith("Game  "))
    assert texts[game + 1] == UNTIL_BLOCKED
    assert not any("Redeals" in line.plain for line in lobby_lines(room(), 0))


def over_and_moves() -> tuple[RaceOver, tuple[str, ...]]:
    state, moves = engine.new_game(BILLIE, SEED, UNLIMITED), list[str]()
    while engine.outcome(state) is engine.Outcome.PLAYING:
        move = engine.legal_moves(state)[0]
        state = engine.apply(state, move)
        moves.append(move.format())
    ranking = (
        result(1, 0, "Ada", outcome="stuck", progress=81, moves=len(moves), log=log(*moves)),
    )
    return race_over(ranking, SEED, seed_commit=hashlib.sha256(SEED).hexdigest()), tuple(moves)


def test_the_results_name_the_rule_and_replay_under_it() -> None:
    over, moves = over_and_moves()
    assert moves.count("redeal") == 12
    shown = render_ranking(over, 104, rule=UNTIL_BLOCKED).splitlines()
    assert shown[:2] == ["Race 1 results:", UNTIL_BLOCKED]
    tui = results_lines(over, 104, [], billie_room(UNLIMITED))
    assert tui[1].plain == UNTIL_BLOCKED
    checked = check_race(over, BILLIE, 1, option=UNLIMITED)
    assert checked[-1] == f"Replayed Ada's {len(moves)} moves: 81 cards home, agrees."
    standard = check_race(over, BILLIE, 1)
    assert standard[-1].startswith("WARNING: Ada's moves do not replay")
