"""The commands that seat bots take a level; a room's bots default to a newcomer's field."""

from __future__ import annotations

from client_cli.__main__ import entry_request
from client_cli.args import parse_args
from client_cli.bots.team import FIELD
from protocol import CreateRoom, JoinRoom


def test_the_commands_take_a_level() -> None:
    assert parse_args(["bot", "ABC234", "--level", "2"]).level == "casual"
    assert parse_args(["bot", "ABC234"]).level == "good"
    assert parse_args(["bot", "ABC234", "--strategy", "greedy"]).level is None
    assert parse_args(["practice", "little-forty", "--level", "expert"]).level == "expert"
    assert parse_args(["create", "little-forty", "--bots", "1"]).level is None
    assert FIELD == ("casual", "good")


def test_a_bot_joins_or_creates_with_its_level_and_a_person_with_none() -> None:
    joining = entry_request(parse_args(["bot", "ABC234", "--level", "strong"]))(1)
    assert isinstance(joining, JoinRoom) and (joining.bot, joining.level) == (True, "strong")
    creating = entry_request(parse_args(["bot", "--create", "little-forty", "--level", "1"]))(1)
    assert isinstance(creating, CreateRoom) and creating.level == "beginner"
    person = entry_request(parse_args(["join", "ABC234", "--name", "Ada"]))(1)
    assert isinstance(person, JoinRoom) and (person.bot, person.level) == (False, None)
