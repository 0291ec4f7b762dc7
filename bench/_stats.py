"""Summaries of repeated measurements: percentiles, and medians with their range."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


def percentile(values: Sequence[float], q: float) -> float:
    """The value below which a fraction `q` of `values` lies (nearest rank); NaN if empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(frozen=True)
class Spread:
    """The median of repeated runs, with the lowest and highest run."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        return cls(statistics.median(values), min(values), max(values))

    def format(self, spec: str) -> str:
        """``median [low-high]`` with each number formatted by `spec`."""
        median, low, high = (format(value, spec) for value in (self.median, self.low, self.high))
        return f"{median} [{low}-{high}]"


def ratios(tops: Sequence[float], bottoms: Sequence[float]) -> Spread:
    """The spread of the run-by-run ratios ``top / bottom`` (runs are paired in order);
    a run whose ``bottom`` is 0 (nothing measured) gives ``nan``."""
    pairs = zip(tops, bottoms, strict=True)
    return Spread.of([top / bottom if bottom else math.nan for top, bottom in pairs])
