"""Summaries of the benchmarks' repeated runs."""

from __future__ import annotations

import math

from bench._stats import Spread, percentile, ratios


def test_ratios_pair_runs_in_order_and_a_run_that_measured_nothing_is_not_a_number() -> None:
    assert ratios([2.0, 9.0, 4.0], [1.0, 3.0, 1.0]) == Spread(3.0, 2.0, 4.0)
    assert math.isnan(ratios([4.0], [0.0]).median)


def test_a_spread_is_the_median_with_the_lowest_and_highest_run() -> None:
    assert Spread.of([3.0, 1.0, 2.0]) == Spread(2.0, 1.0, 3.0)
    assert Spread(2.0, 1.0, 3.0).format(".1f") == "2.0 [1.0-3.0]"
    assert percentile([5.0, 1.0, 3.0, 2.0], 0.5) == 3.0
    assert math.isnan(percentile([], 0.99))
