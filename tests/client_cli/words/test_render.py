"""Snapshots of boards, rooms and rankings as the terminal shows them."""

from __future__ import annotations

from typing import get_args

import pytest

import engine
from client_cli.words.render import (
    PLACED_BY,
    counted,
    format_clock,
    format_duration,
    player_name,
    render,
    render_ranking,
    render_room,
)
from protocol import HostEnd, RankReason, Settings
from tests.client_cli._samples import board, last_race, log, player, race_over, result, room
from tests.client_cli._snapshots import assert_snapshot


def _home_moves(variant: str, count: int) -> tuple[str, ...]:
    """The first ``count`` moves of deal 1 that send a card home, found with the engine."""
    state, moves = engine.new_game(variant, b"deal:1"), list[str]()
    while len(moves) < count:
        move = next(m for m in engine.legal_moves(state) if m.dst == "f" or m.action != "move")
        state = engine.apply(state, move)
        moves.append(move.format())
    return tuple(moves)


def test_little_forty_after_a_draw() -> None:
    shown = render(board("little-forty", moves=("draw",)))
    assert "stock 61   waste 3, top " in shown
    assert_snapshot("little_forty", shown)


def test_little_milligan_after_a_deal() -> None:
    assert_snapshot("little_milligan", render(board("little-milligan", moves=("deal",))))


def test_little_billie_with_cards_home() -> None:
    shown = render(board("little-billie", moves=_home_moves("little-billie", 3)))
    assert "f1-f4 up from A (c d h s); f5-f8 down from K (c d h s)" in shown
    assert_snapshot("little_billie", shown)


@pytest.mark.parametrize("variant", engine.VARIANT_KEYS)
@pytest.mark.parametrize("seed", [b"deal:1", b"deal:2", b"deal:3"])
def test_every_board_fits_twenty_lines_of_eighty_columns(variant: str, seed: bytes) -> None:
    lines = render(board(variant, seed)).splitlines()
    assert len(lines) <= 20
    assert max(map(len, lines)) <= 80


def test_double_canfield_40_shows_base_rank_and_reserve() -> None:
    shown = render(board("double-canfield-40"))
    assert "reserve " in shown and "(+39 face down)" in shown
    assert_snapshot("double_canfield_40", shown)


def test_a_finished_game_says_how_it_ended() -> None:
    stuck = board("little-forty").model_copy(update={"outcome": "stuck", "passes_left": 0})
    assert render(stuck).splitlines()[0] == "Little Forty: 0/104 cards home - STUCK"
    assert "turn-overs left 0" in render(stuck)


def test_lobby_room() -> None:
    settings = Settings(max_players=3, deal_number=42, countdown_s=5)
    assert_snapshot("room_lobby", render_room(room(settings=settings), you=1))


def test_a_lobby_after_a_rematch_tells_how_the_race_before_ended() -> None:
    lobby = room(race_no=2, last_race=last_race())
    assert_snapshot("room_lobby_last_race", render_room(lobby, you=1))
    racing = room(phase="racing", race_no=2, last_race=last_race(), start_at_ms=1000)
    assert "Last race" not in render_room(racing, you=1), "only the lobby tells it"


def test_a_practice_room_says_hints_are_allowed() -> None:
    practice = render_room(room(settings=Settings(practice=True)), you=0)
    assert "| practice: hints allowed" in practice
    assert "practice" not in render_room(room(), you=0)


def test_a_room_with_an_idle_limit_says_so() -> None:
    assert "| idle limit 45 s |" in render_room(room(settings=Settings(idle_limit_s=45)), you=0)
    assert "idle limit" not in render_room(room(), you=0)


def test_racing_room() -> None:
    players = (
        player(0, "Ada", ready=True, progress=17, moves=40),
        player(2, "Charlotte", ready=True, progress=3, moves=9, away=True),
        player(3, "Bob", ready=True, outcome="won", progress=104, moves=230),
    )
    racing = room(
        phase="racing", players=players, spectators=2, start_at_ms=1000, seed_commit="ab" * 32
    )
    assert_snapshot("room_racing", render_room(racing, you=0))


def test_ranking() -> None:
    ranking = (
        result(1, 1, "Bob", outcome="won", progress=104, moves=230, elapsed_ms=83456),
        result(
            2, 0, "Ada", outcome="timeout", progress=61, moves=180, elapsed_ms=900000,
            decided_by="outcome",
        ),
        result(
            3, 2, "Charlotte", progress=12, moves=30, elapsed_ms=31002, log=log("draw"),
            decided_by="progress",
        ),
    )  # fmt: skip
    assert_snapshot("ranking", render_ranking(race_over(ranking, race_no=3), total=104))


def test_a_ranking_says_the_host_ended_the_race_and_whom_it_stopped() -> None:
    ranking = (
        result(1, 1, "Bob", outcome="timeout", progress=30, elapsed_ms=7000, decided_by=None),
        result(2, 2, "Cy", outcome="timeout", progress=20, elapsed_ms=5000, decided_by="progress"),
        result(3, 0, "Ada", outcome="timeout", progress=10, elapsed_ms=7000, decided_by="progress"),
    )
    over = race_over(ranking, ended_by_host=HostEnd(seat=0, elapsed_ms=7000))
    assert_snapshot("ranking_host_end", render_ranking(over, total=104))


@pytest.mark.parametrize(
    ("ms", "text"),
    [(0, "0:00.000"), (83456, "1:23.456"), (3600000, "60:00.000"), (-5, "0:00.000")],
)
def test_format_duration(ms: int, text: str) -> None:
    assert format_duration(ms) == text


@pytest.mark.parametrize(("ms", "text"), [(0, "0:00"), (1, "0:01"), (59001, "1:00"), (-1, "0:00")])
def test_format_clock_rounds_up(ms: int, text: str) -> None:
    assert format_clock(ms) == text


def test_every_ranking_reason_has_a_phrase() -> None:
    assert set(PLACED_BY) == set(get_args(RankReason))
    assert all(phrase.strip() for phrase in PLACED_BY.values())


def test_a_count_is_said_with_its_word_in_the_singular_only_for_one() -> None:
    assert [counted(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


def test_player_name_falls_back_to_the_seat() -> None:
    assert player_name(room(), 1) == "Bob"
    assert player_name(room(), 6) == "seat 7"
