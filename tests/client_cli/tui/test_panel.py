from __future__ import annotations

from typing import Any

from rich.text import Text

from client_cli.tui.glyphs import ASCII, UNICODE
from client_cli.tui.panel import (
    big_number,
    clock_line,
    panel_lines,
    state_of,
    time_left_ms,
    warning_due,
)
from protocol import RoomSnapshot, Settings
from tests.client_cli._samples import player, room

START_MS = 1_000_000
LIMIT_S = 300


def racing(**fields: Any) -> RoomSnapshot:
    return room(
        phase="racing",
        start_at_ms=START_MS,
        settings=Settings(time_limit_s=LIMIT_S),
        seed_commit="ab" * 32,
        **fields,
    )


def styles(text: Text) -> str:
    return " ".join(str(span.style) for span in text.spans)


def test_the_clock_counts_down_and_warns_at_one_minute_and_ten_seconds() -> None:
    race = racing()
    end = START_MS + LIMIT_S * 1000
    calm = clock_line(race, START_MS + 1)
    warned = clock_line(race, end - 60_000)
    urgent = clock_line(race, end - 9_500)
    assert calm.plain == "5:00 left"
    assert warned.plain == "1:00 left  1 minute"
    assert "yellow" not in styles(calm)
    assert "on yellow" in styles(warned)
    assert urgent.plain == "0:10 left  hurry!"
    assert "on red" in styles(urgent)


def test_every_racer_has_a_name_a_bar_cards_home_moves_and_a_state() -> None:
    players = (
        player(0, "Ada", progress=52, moves=80),
        player(1, "Bob", outcome="won", progress=104, moves=200),
        player(2, "Cy", outcome="timeout", progress=3, moves=9),
        player(3, "Di", away=True, progress=10, moves=12),
    )
    lines = [line.plain for line in panel_lines(racing(players=players), 0, START_MS, UNICODE, 24)]
    assert lines[0] == "5:00 left"
    assert lines[1].startswith("seed abab")
    assert lines[3].startswith("Ada (you)") and lines[3].endswith("racing")
    assert lines[4].endswith(" 52/104  80m") and "█" in lines[4] and "░" in lines[4]
    assert lines[5].endswith("won") and lines[6].count("█") == len(lines[6]) - len(" 104/104 200m")
    assert lines[7].endswith("timed out")
    assert lines[9].endswith("away")
    assert all(len(line) <= 24 for line in lines)


def test_a_racer_warned_for_idling_shows_the_time_left_to_move() -> None:
    players = (player(0, "Ada", idle_timeout_at_ms=START_MS + 14_500), player(1, "Bob"))
    lines = panel_lines(racing(players=players), 1, START_MS, UNICODE, 24)
    assert lines[3].plain.endswith("idle 0:15") and "on red" in styles(lines[3])
    assert lines[5].plain.endswith("racing")
    over = room(phase="finished", players=(player(0, "Ada", idle_timeout_at_ms=1),))
    assert panel_lines(over, 1, START_MS, UNICODE, 24)[2].plain.endswith("racing")


def test_lobby_states_are_ready_or_not() -> None:
    lobby = room()
    assert [state_of(p, "lobby") for p in lobby.players] == ["ready", "not ready"]


def test_big_digits_are_five_rows_in_the_chosen_glyphs() -> None:
    three = big_number(3, UNICODE)
    assert len(three) == 5
    assert set("".join(three)) == {"█", " "}
    assert big_number(10, ASCII)[0] == "  ##    ######"


def test_each_time_warning_is_given_once_and_a_late_start_skips_to_the_nearest() -> None:
    given: set[int] = set()
    assert warning_due(None, given, LIMIT_S) is None
    assert warning_due(61_000, given, LIMIT_S) is None
    assert warning_due(60_000, given, LIMIT_S) == 60
    given.add(60)
    assert warning_due(30_000, given, LIMIT_S) is None
    assert warning_due(10_000, given, LIMIT_S) == 10
    assert warning_due(5_000, set(), LIMIT_S) == 10
    assert time_left_ms(racing(), START_MS + 1000) == LIMIT_S * 1000 - 1000
    assert time_left_ms(room(), START_MS) is None


def test_a_one_minute_race_is_not_warned_of_its_last_minute_at_the_start() -> None:
    assert warning_due(60_000, set(), 60) is None
    assert warning_due(10_000, set(), 60) == 10


def test_a_racer_who_left_after_finishing_keeps_their_outcome() -> None:
    done = player(1, "Bob", away=True, outcome="won")
    still = player(2, "Cy", away=True, outcome="playing")
    assert [state_of(p, "finished") for p in (done, still)] == ["won", "away"]
    assert [state_of(p, "racing") for p in (done, still)] == ["won", "away"]
    assert state_of(player(3, "Dee", away=True), "lobby") == "away"
