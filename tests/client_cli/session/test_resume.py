"""``solrace resume`` takes the only saved seat, the one in the room named, or asks,
describing each seat; saved seats that can no longer be resumed are dropped."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from client_cli.session.resume import KEPT_AFTER_RACE_S, LONGEST_RACE_S, describe, pick_seat
from client_cli.session.saved_seats import SavedSeat, save, seat_path

NOW = 1_800_000_000.0
ADA = SavedSeat(
    "ws://h:1",
    "K7PQ2M",
    "a" * 24,
    0,
    variant="little-forty",
    name="Ada",
    saved_at=NOW - 300,
    ends_at=NOW + 530,
)
BOB = SavedSeat(
    "ws://h:1",
    "K7PQ2M",
    "b" * 24,
    1,
    variant="little-forty",
    name="Bob",
    saved_at=NOW - 2 * 3600 - 5,
    ends_at=NOW - 3600,
)
CY = SavedSeat(
    "ws://h:1",
    "ABC234",
    "c" * 24,
    0,
    variant="little-milligan",
    name="You",
    practice=True,
    bots=("d" * 24, "e" * 24),
    saved_at=NOW - 40,
    ends_at=NOW + 60,
)


def _saved(tmp_path: Path, *seats: SavedSeat) -> Path:
    for saved in seats:
        save(tmp_path, saved)
    return tmp_path


def test_the_only_saved_seat_is_taken_without_asking(tmp_path: Path) -> None:
    said: list[str] = []
    assert pick_seat(_saved(tmp_path, ADA), "", None, said.append, None, now=NOW) == ADA
    assert said == []


def test_a_room_code_or_a_server_narrows_the_choice(tmp_path: Path) -> None:
    seats_dir = _saved(tmp_path, ADA, CY)
    assert pick_seat(seats_dir, "ABC234", None, print, None, now=NOW) == CY
    assert pick_seat(seats_dir, "", "ws://elsewhere:1", print, None, now=NOW) is None


def test_the_choice_names_the_game_the_player_the_bots_and_when(tmp_path: Path) -> None:
    seats_dir = _saved(tmp_path, ADA, BOB, CY)
    said: list[str] = []
    questions: list[str] = []

    def answer(question: str) -> str:
        questions.append(question)
        return " 3 "

    assert pick_seat(seats_dir, "", None, said.append, answer, now=NOW) == BOB
    assert questions == ["Which one (1-3)? "]
    assert said == [
        "3 saved seats, the latest first:",
        "  1. Little Milligan practice as You, with 2 bots\n"
        "     saved just now, 1 minute left; room ABC234 on ws://h:1",
        "  2. Little Forty as Ada\n     saved 5 minutes ago, 9 minutes left; room K7PQ2M on ws://h:1",
        "  3. Little Forty as Bob\n     saved 2 hours ago, over; room K7PQ2M on ws://h:1",
    ]


def test_a_seat_saved_by_an_older_client_says_what_it_knows(tmp_path: Path) -> None:
    path = seat_path(tmp_path, "ws://h:1", "K7PQ2M", 1)
    old = {"server": "ws://h:1", "code": "K7PQ2M", "token": "t" * 24, "seat": 1, "last_seq": 4}
    path.write_text(json.dumps(old))
    os.utime(path, (NOW - 20 * 3600, NOW - 20 * 3600))
    saved = pick_seat(tmp_path, "", None, print, None, now=NOW)
    assert saved is not None
    assert (saved.bots, saved.variant, saved.saved_at) == ((), "", NOW - 20 * 3600)
    assert (
        describe(saved, NOW) == "a race, seat 2\n     saved 20 hours ago; room K7PQ2M on ws://h:1"
    )
    assert "saved 2 days ago;" in describe(saved, NOW + 2 * 86400)
    watching = SavedSeat("ws://h:1", "K7PQ2M", "w" * 24, None, variant="little-billie")
    assert describe(watching, 100.0).startswith("watching Little Billie\n     saved 1 minute ago;")


def test_saved_seats_that_cannot_be_resumed_are_dropped(tmp_path: Path) -> None:
    long_over = SavedSeat(
        "ws://h:1", "QQQQQQ", "q" * 24, 0, saved_at=NOW - 2 * 86400, ends_at=NOW - 86400 - 1
    )
    forgotten = SavedSeat("ws://h:2", "RRRRRR", "r" * 24, 0, saved_at=NOW - 2 * 86400)
    unreadable = tmp_path / "SSSSSS-seat1-000000000000.json"
    seats_dir = _saved(tmp_path, ADA, BOB, long_over, forgotten)
    unreadable.write_text("{")
    said: list[str] = []
    assert pick_seat(seats_dir, "", None, said.append, None, now=NOW) is None
    assert said[0] == "2 saved seats, the latest first:"
    assert sorted(path.name[:6] for path in tmp_path.iterdir()) == ["K7PQ2M", "K7PQ2M"]
    assert KEPT_AFTER_RACE_S + LONGEST_RACE_S < 2 * 86400


@pytest.mark.parametrize("reply", ["", "3", "two"])
def test_a_bad_answer_resumes_nothing(tmp_path: Path, reply: str) -> None:
    said: list[str] = []
    seats_dir = _saved(tmp_path, ADA, BOB)
    assert pick_seat(seats_dir, "", None, said.append, lambda _: reply, now=NOW) is None
    assert said[-1] == f"No seat {reply!r}: nothing resumed."


def test_without_a_terminal_to_ask_the_code_is_requested(tmp_path: Path) -> None:
    said: list[str] = []
    assert pick_seat(_saved(tmp_path, ADA, CY), "", None, said.append, None, now=NOW) is None
    assert said[-1] == "Say which with the room code: solrace resume CODE"
