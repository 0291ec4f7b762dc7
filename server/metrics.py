"""Prometheus metrics of one server, on a registry of its own.

Each `Metrics` has a private `CollectorRegistry`, so several servers in one process
(as in the tests) never share or clash over a metric. Exposed names:

    solrace_connections                    gauge: open WebSocket connections
    solrace_rooms                          gauge: rooms with a connection on this process
    solrace_moves_total                    counter: moves validated and committed
    solrace_moves_rejected_total           counter: moves refused (illegal etc.)
    solrace_request_errors_total           counter: requests answered with an error
    solrace_connections_refused_total      counter: connections refused by a limit per address
    solrace_move_latency_seconds           histogram: move received to acknowledgement sent
    solrace_winnable_deals{variant}        gauge: seeds left in each game's pool of winnable
                                           deals (shared by every process; read at each scrape)
    solrace_solver_jobs_total{kind,result} counter: verdicts and hint searches (kind verdict or
                                           hint; result won, unwinnable, undecided or busy)
    solrace_dead_end_checks_total{answer}  counter: dead-end checks by answer (can, cannot,
                                           undecided; busy: no solver worker was free)
    process_*, python_info                 the process and platform collectors
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

LATENCY_BUCKETS_S = (0.0005, 0.001, 0.002, 0.003, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The Content-Type of `Metrics.render()`'s output."""


class Metrics:
    """The server's metrics. Gauges read live values from the callables given."""

    def __init__(self, connections: Callable[[], float], rooms: Callable[[], float]) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        self.connections = Gauge(
            "solrace_connections", "Open WebSocket connections.", registry=registry
        )
        self.connections.set_function(connections)
        self.rooms = Gauge(
            "solrace_rooms", "Rooms with a connection on this process.", registry=registry
        )
        self.rooms.set_function(rooms)
        self.moves = Counter("solrace_moves", "Moves validated and committed.", registry=registry)
        self.rejected = Counter(
            "solrace_moves_rejected", "Moves refused (illegal etc.).", registry=registry
        )
        self.errors = Counter(
            "solrace_request_errors", "Requests answered with an error.", registry=registry
        )
        self.refused = Counter(
            "solrace_connections_refused",
            "WebSocket connections refused by a limit per client address.",
            registry=registry,
        )
        self.move_latency = Histogram(
            "solrace_move_latency_seconds",
            "Time from receiving a move to sending its acknowledgement.",
            buckets=LATENCY_BUCKETS_S,
            registry=registry,
        )
        self.winnable = Gauge(
            "solrace_winnable_deals",
            "Seeds left in each game's pool of winnable deals.",
            ["variant"],
            registry=registry,
        )
        self.solver_jobs = Counter(
            "solrace_solver_jobs",
            "Deal verdicts and hint searches, by kind and result (busy: no worker was free).",
            ["kind", "result"],
            registry=registry,
        )
        self.dead_end_checks = Counter(
            "solrace_dead_end_checks",
            "Dead-end checks of racers with no card home for a while, by answer.",
            ["answer"],
            registry=registry,
        )

    def set_winnable(self, counts: Mapping[str, int]) -> None:
        """The pool levels just read from the store, by game."""
        for variant, count in counts.items():
            self.winnable.labels(variant=variant).set(count)

    def render(self) -> bytes:
        """Every metric in the Prometheus text format (`CONTENT_TYPE`)."""
        return generate_latest(self.registry)
