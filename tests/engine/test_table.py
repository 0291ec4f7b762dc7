"""The bounded table of remembered answers."""

from __future__ import annotations

import pytest

from engine._table import Remembered


def test_an_answer_is_worked_out_once_and_then_found() -> None:
    asked: list[int] = []

    def square(key: int) -> int:
        asked.append(key)
        return key * key

    table = Remembered(square, most=10)
    assert [table[3], table[4], table[3]] == [9, 16, 9]
    assert list(map(table.__getitem__, [4, 5])) == [16, 25]
    assert asked == [3, 4, 5]


def test_the_table_is_emptied_when_full_and_never_grows_past_its_bound() -> None:
    table: Remembered[int, int] = Remembered(lambda key: -key, most=4)
    for key in range(10):
        assert table[key] == -key
        assert len(table) <= 4
    assert list(table) == [8, 9]


def test_a_key_whose_answer_fails_is_not_remembered() -> None:
    def refuse(key: str) -> str:
        raise ValueError(key)

    table = Remembered(refuse, most=4)
    with pytest.raises(ValueError, match="bad"):
        table["bad"]
    assert "bad" not in table
