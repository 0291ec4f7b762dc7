"""Per-connection token bucket: a steady rate with a burst allowance."""

from __future__ import annotations


class TokenBucket:
    """Allows `rate` events a second on average and bursts of up to `burst`.

    The caller passes the clock in (seconds, monotonic), which keeps the
    bucket deterministic under test.
    """

    __slots__ = ("burst", "rate", "tokens", "updated")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.updated = burst, now

    def take(self, now: float) -> bool:
        """Spend one token if there is one; False means the event is over the limit."""
        elapsed = now - self.updated
        self.updated = now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
