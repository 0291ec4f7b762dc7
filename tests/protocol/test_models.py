"""Rules the shared models enforce beyond field ranges."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from protocol import DealVerdict, Settings


def test_winnable_only_takes_its_deal_from_the_pool_not_a_number() -> None:
    assert Settings(winnable_only=True).deal_number is None
    assert Settings(deal_number=7).winnable_only is False
    with pytest.raises(ValidationError, match="winnable_only"):
        Settings(winnable_only=True, deal_number=7)


def test_settings_default_to_a_ranked_race_on_any_secret_deal() -> None:
    chosen = Settings()
    assert (chosen.practice, chosen.winnable_only, chosen.deal_number) == (False, False, None)


def test_a_verdict_carries_its_line_length_and_budget() -> None:
    verdict = DealVerdict(race_no=1, verdict="won", line_moves=87, budget_s=10.0)
    assert verdict.line_moves == 87
    with pytest.raises(ValidationError):
        DealVerdict(race_no=1, verdict="maybe", budget_s=10.0)  # type: ignore[arg-type]
