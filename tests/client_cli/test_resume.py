"""``solrace resume`` takes the only saved seat, the one in the room named, or asks."""

from __future__ import annotations

from pathlib import Path

import pytest

from client_cli._resume import pick_record
from client_cli.statefile import SavedSession, save

ADA = SavedSession("ws://h:1", "K7PQ2M", "a" * 24, 0)
BOB = SavedSession("ws://h:1", "K7PQ2M", "b" * 24, 1)
CY = SavedSession("ws://h:1", "ABC234", "c" * 24, 0)


def _records(tmp_path: Path, *seats: SavedSession) -> Path:
    for saved in seats:
        save(tmp_path, saved)
    return tmp_path


def test_the_only_record_is_taken_without_asking(tmp_path: Path) -> None:
    said: list[str] = []
    assert pick_record(_records(tmp_path, ADA), "", None, said.append, None) == ADA
    assert said == []


def test_a_room_code_or_a_server_narrows_the_choice(tmp_path: Path) -> None:
    records = _records(tmp_path, ADA, CY)
    assert pick_record(records, "ABC234", None, print, None) == CY
    assert pick_record(records, "", "ws://elsewhere:1", print, None) is None


def test_two_seats_of_one_machine_in_one_room_are_asked_about(tmp_path: Path) -> None:
    records = _records(tmp_path, ADA, BOB, CY)
    said: list[str] = []
    questions: list[str] = []

    def answer(question: str) -> str:
        questions.append(question)
        return " 2 "

    assert pick_record(records, "K7PQ2M", None, said.append, answer) == BOB
    assert questions == ["Which one (1-2)? "]
    assert said == [
        "2 saved seats:",
        "  1. room K7PQ2M, seat 1, on ws://h:1",
        "  2. room K7PQ2M, seat 2, on ws://h:1",
    ]


@pytest.mark.parametrize("reply", ["", "3", "two"])
def test_a_bad_answer_resumes_nothing(tmp_path: Path, reply: str) -> None:
    said: list[str] = []
    records = _records(tmp_path, ADA, BOB)
    assert pick_record(records, "", None, said.append, lambda _: reply) is None
    assert said[-1] == f"No seat {reply!r}: nothing resumed."


def test_without_a_terminal_to_ask_the_code_is_requested(tmp_path: Path) -> None:
    said: list[str] = []
    assert pick_record(_records(tmp_path, ADA, CY), "", None, said.append, None) is None
    assert said[-1] == "Say which with the room code: solrace resume CODE"
