"""The commands that seat bots take a level; a room's bots default to a newcomer's field."""

from __future__ import annotations

from client_cli.args import parse_args
from client_cli.bots.team import FIELD


def test_the_commands_take_a_level() -> None:
    assert parse_args(["bot", "ABC234", "--level", "2"]).level == "casual"
    assert parse_args(["bot", "ABC234"]).level == "good"
    assert parse_args(["bot", "ABC234", "--strategy", "greedy"]).level is None
    assert parse_args(["practice", "little-forty", "--level", "expert"]).level == "expert"
    assert parse_args(["create", "little-forty", "--bots", "1"]).level is None
    assert FIELD == ("casual", "good")
