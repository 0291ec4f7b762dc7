"""The lookup tables each `Rules` value derives from its building rule."""

import pytest

from engine import VARIANT_KEYS, find_variant
from engine._tableau import takes
from engine.cards import is_red


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_a_card_lies_on_another_exactly_when_its_kind_is_the_one_wanted(variant: str) -> None:
    rules = find_variant(variant)
    for lower in range(52):
        fits = {upper for upper in range(52) if takes(rules, (lower,), upper)}
        assert rules.takers[lower] == fits
        assert fits == {upper for upper in range(52) if rules.kinds[upper] == rules.wants[lower]}


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_building_follows_rank_and_colour(variant: str) -> None:
    rules = find_variant(variant)
    for lower in range(52):
        for upper in range(52):
            below = (lower % 13 - 1) % 13 if rules.wrap else lower % 13 - 1
            rank_fits = upper % 13 == below
            colour_fits = rules.build != "alternate" or is_red(lower) != is_red(upper)
            expected = rules.build is not None and rank_fits and colour_fits
            assert takes(rules, (lower,), upper) is expected, (lower, upper)
