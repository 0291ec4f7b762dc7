"""Prometheus metrics in the text exposition format, without a client library.

The server needs a handful of counters, gauges and one latency histogram; a
small registry keeps the hot path to an attribute increment.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

LATENCY_BUCKETS_S = (0.0005, 0.001, 0.002, 0.003, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Counter:
    def __init__(self, name: str, help_text: str) -> None:
        self.name, self.help_text, self.value = name, help_text, 0

    def inc(self, amount: int = 1) -> None:
        self.value += amount

    def render(self) -> list[str]:
        return [
            f"# HELP {self.name} {self.help_text}",
            f"# TYPE {self.name} counter",
            f"{self.name} {self.value}",
        ]


class Gauge:
    """A gauge whose value is read from a callable when scraped."""

    def __init__(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        self.name, self.help_text, self.read = name, help_text, read

    def render(self) -> list[str]:
        return [
            f"# HELP {self.name} {self.help_text}",
            f"# TYPE {self.name} gauge",
            f"{self.name} {self.read():g}",
        ]


class Histogram:
    def __init__(self, name: str, help_text: str, buckets: tuple[float, ...]) -> None:
        self.name, self.help_text, self.buckets = name, help_text, buckets
        self.counts = [0] * (len(buckets) + 1)
        self.total = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(self.buckets, seconds)] += 1
        self.total += seconds

    def render(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help_text}", f"# TYPE {self.name} histogram"]
        running = 0
        for bound, count in zip(self.buckets, self.counts, strict=False):
            running += count
            lines.append(f'{self.name}_bucket{{le="{bound:g}"}} {running}')
        running += self.counts[-1]
        lines.append(f'{self.name}_bucket{{le="+Inf"}} {running}')
        lines.append(f"{self.name}_sum {self.total:.6f}")
        lines.append(f"{self.name}_count {running}")
        return lines


class Metrics:
    """The server's metrics. Gauges read live values from the callables given."""

    def __init__(self, connections: Callable[[], float], rooms: Callable[[], float]) -> None:
        self.connections = Gauge("solrace_connections", "Open WebSocket connections.", connections)
        self.rooms = Gauge("solrace_rooms", "Rooms with a connection on this process.", rooms)
        self.moves = Counter("solrace_moves_total", "Moves validated and committed.")
        self.rejected = Counter("solrace_moves_rejected_total", "Moves refused (illegal etc.).")
        self.errors = Counter("solrace_request_errors_total", "Requests answered with an error.")
        self.move_latency = Histogram(
            "solrace_move_latency_seconds",
            "Time from receiving a move to sending its acknowledgement.",
            LATENCY_BUCKETS_S,
        )

    def render(self) -> str:
        parts = (
            self.connections,
            self.rooms,
            self.moves,
            self.rejected,
            self.errors,
            self.move_latency,
        )
        return "\n".join(line for part in parts for line in part.render()) + "\n"
