"""``create --unlimited-redeals``: Little Billie's rule option, asked for from the command line."""

import pytest

from client_cli.args import parse_args
from protocol import Settings


def test_create_asks_for_unlimited_redeals() -> None:
    chosen = parse_args(["create", "little-billie", "--name", "Ada", "--unlimited-redeals"])
    assert chosen.settings == Settings(rule_option="unlimited-redeals")
    assert parse_args(["create", "little-billie", "--name", "Ada"]).settings.rule_option == ""
    practice = parse_args(["practice", "little-billie", "--unlimited-redeals", "--deal", "1"])
    assert practice.settings.rule_option == "unlimited-redeals"


@pytest.mark.parametrize(
    "extra",
    [["little-forty"], ["little-billie", "--winnable-only"], ["little-billie", "--rated"]],
)
def test_unlimited_redeals_only_for_little_billie_on_the_standard_pools_terms(
    capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    with pytest.raises(SystemExit):
        parse_args(["create", *extra, "--name", "Ada", "--unlimited-redeals"])
    assert "--unlimited-redeals is for Little Billie" in capsys.readouterr().err
