"""The bot process's command lines: what each means, and a clear refusal for the rest."""

from __future__ import annotations

import json

import pytest

from bots.house.control import (
    ControlError,
    Drive,
    Drop,
    Stop,
    driving_line,
    gone_line,
    load_line,
    parse_command,
    up_line,
)

TOKEN = "a" * 22


def test_each_command_is_read() -> None:
    drive = {"op": "drive", "seat": "ABC234:2", "token": TOKEN, "level": "strong", "seed": 9}
    assert parse_command(json.dumps(drive)) == Drive("ABC234:2", TOKEN, "strong", 9)
    assert parse_command('{"op": "drop", "seat": "ABC234:2"}') == Drop("ABC234:2")
    assert parse_command('{"op": "stop"}\n') == Stop()


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("drive", "not JSON"),
        ("[1, 2]", "a command is a JSON object"),
        ('{"op": "go"}', "unknown op 'go'"),
        ('{"op": "drop"}', "seat must be a non-empty string"),
        ('{"op": "drop", "seat": "ABC234"}', "is not CODE:N"),
        ('{"op": "drive", "seat": "A:1", "level": "good", "seed": 1}', "token must be"),
        ('{"op": "drive", "seat": "A:1", "token": "short", "level": "good", "seed": 1}', "token"),
        (f'{{"op": "drive", "seat": "A:1", "token": "{TOKEN}", "seed": 1}}', "level must be"),
        (f'{{"op": "drive", "seat": "A:1", "token": "{TOKEN}", "level": "good"}}', "seed must"),
        (
            f'{{"op": "drive", "seat": "A:1", "token": "{TOKEN}", "level": "good", "seed": true}}',
            "seed must",
        ),
    ],
)
def test_a_line_that_is_no_command_is_refused_saying_why(line: str, why: str) -> None:
    with pytest.raises(ControlError, match=why):
        parse_command(line)


def test_the_answers_are_one_json_object_a_line() -> None:
    lines = [up_line(7), driving_line("A:1"), gone_line("A:1", "auth/bad-token"), load_line(2, 9)]
    assert [json.loads(line) for line in lines] == [
        {"op": "up", "pid": 7},
        {"op": "driving", "seat": "A:1"},
        {"op": "gone", "seat": "A:1", "reason": "auth/bad-token"},
        {"op": "load", "bots": 2, "rss_bytes": 9},
    ]
    assert all("\n" not in line for line in lines)
