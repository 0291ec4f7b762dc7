"""Metrics: one registry per server, the names that exist, the process collector."""

from __future__ import annotations

import sys

import pytest
from prometheus_client.parser import text_string_to_metric_families

from server.metrics import CONTENT_TYPE, Metrics


def _samples(metrics: Metrics) -> dict[str, float]:
    text = metrics.render().decode()
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if not sample.labels
    }


def test_two_servers_in_one_process_keep_their_own_counts() -> None:
    first, second = Metrics(lambda: 3, lambda: 1), Metrics(lambda: 0, lambda: 0)
    first.moves.inc()
    first.move_latency.observe(0.002)
    first.errors.inc(2)
    assert _samples(first)["solrace_moves_total"] == 1
    assert _samples(first)["solrace_request_errors_total"] == 2
    assert _samples(first)["solrace_move_latency_seconds_count"] == 1
    assert _samples(second)["solrace_moves_total"] == 0
    assert _samples(second)["solrace_move_latency_seconds_count"] == 0


def test_gauges_are_read_when_scraped() -> None:
    connections = [5]
    metrics = Metrics(lambda: connections[0], lambda: 2)
    assert _samples(metrics)["solrace_connections"] == 5
    connections[0] = 7
    assert _samples(metrics)["solrace_connections"] == 7
    assert _samples(metrics)["solrace_rooms"] == 2


def test_every_metric_name_is_exposed() -> None:
    names = set(_samples(Metrics(lambda: 0, lambda: 0)))
    assert {
        "solrace_connections",
        "solrace_rooms",
        "solrace_moves_total",
        "solrace_moves_rejected_total",
        "solrace_request_errors_total",
        "solrace_move_latency_seconds_count",
        "solrace_move_latency_seconds_sum",
    } <= names
    families = text_string_to_metric_families(Metrics(lambda: 0, lambda: 0).render().decode())
    assert "solrace_dead_end_checks" in {family.name for family in families}


def test_pool_levels_are_one_gauge_labelled_by_game() -> None:
    metrics = Metrics(lambda: 0, lambda: 0)
    metrics.set_winnable({"little-forty": 4, "little-billie": 0})
    metrics.set_winnable({"little-forty": 3})
    text = metrics.render().decode()
    levels = {
        sample.labels["variant"]: sample.value
        for family in text_string_to_metric_families(text)
        if family.name == "solrace_winnable_deals"
        for sample in family.samples
    }
    assert levels == {"little-forty": 3, "little-billie": 0}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process metrics need /proc")
def test_process_and_platform_collectors_are_included() -> None:
    text = Metrics(lambda: 0, lambda: 0).render().decode()
    assert "process_cpu_seconds_total" in text
    assert "process_resident_memory_bytes" in text
    assert "python_info" in text
    assert CONTENT_TYPE.startswith("text/plain")
