"""`Settings.rule_option`: a known option name or none, never with winnable-only or rated."""

import pytest
from pydantic import ValidationError

from protocol import Settings


def test_the_standard_rules_are_the_default_and_the_field_is_optional_on_the_wire() -> None:
    assert Settings().rule_option == ""
    assert Settings.model_validate({"max_players": 2}).rule_option == ""
    assert Settings(rule_option="unlimited-redeals").rule_option == "unlimited-redeals"


@pytest.mark.parametrize("name", ["unlimited", "2", "x" * 200])
def test_an_unknown_option_is_refused(name: str) -> None:
    with pytest.raises(ValidationError):
        Settings(rule_option=name)


@pytest.mark.parametrize("extra", [{"winnable_only": True}, {"rated": True}])
def test_winnable_only_and_rated_rooms_play_the_standard_rules(extra: dict[str, bool]) -> None:
    with pytest.raises(ValidationError, match="standard rules"):
        Settings.model_validate({"rule_option": "unlimited-redeals", **extra})
    assert Settings.model_validate(extra).rule_option == ""
