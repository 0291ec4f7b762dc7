"""Token buckets: one per connection for its requests, and one per key (a client address)."""

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
        self._refill(now)
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def is_full(self, now: float) -> bool:
        """True when the bucket holds its whole burst again (nothing to remember)."""
        self._refill(now)
        return self.tokens >= self.burst

    def wait_s(self) -> float:
        """Seconds until the next token, as of the last `take`."""
        return max(0.0, (1.0 - self.tokens) / self.rate) if self.rate > 0 else float("inf")

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.updated)
        self.updated = max(self.updated, now)
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)


class KeyedBuckets:
    """A token bucket per key, made full on first use; full buckets are forgotten.

    Forgetting is amortised: once the table has doubled since the last sweep,
    buckets that have refilled completely are dropped (they would start full
    again anyway), so the table stays proportional to the keys active lately.
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, TokenBucket] = {}
        self.sweep_at = 1024

    def take(self, key: str, now: float) -> float | None:
        """Spend one of `key`'s tokens: None, or the seconds to wait for one."""
        bucket = self.buckets.get(key)
        if bucket is None:
            self._sweep(now)
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, now)
        return None if bucket.take(now) else bucket.wait_s()

    def _sweep(self, now: float) -> None:
        if len(self.buckets) < self.sweep_at:
            return
        self.buckets = {k: b for k, b in self.buckets.items() if not b.is_full(now)}
        self.sweep_at = max(1024, 2 * len(self.buckets))
