"""A paced run made of slices taken in turns with other systems."""

from __future__ import annotations

import math

from bench._rig import Paced, Slice


def _slice(
    latencies: list[float], cpu_s: float, waits: tuple[float, float], processes: int = 1
) -> Slice:
    return Slice(
        sent=len(latencies) + 1,
        missed=2,
        exhausted=0,
        busy=1,
        latencies_ms=latencies,
        cpu_s=cpu_s,
        elapsed_s=0.5,
        server_wait_s=waits[0],
        load_wait_s=waits[1],
        processes=processes,
    )


def test_a_run_pools_its_slices_latencies_and_adds_their_counts_and_times() -> None:
    calm = _slice([1.0] * 99, 0.04, (0.0, 0.05))
    slow = _slice([2.0] * 99 + [50.0, 60.0], 0.06, (0.1, 0.15))

    run = Paced.of([calm, slow])

    assert (run.sent, run.missed, run.exhausted, run.busy) == (202, 4, 0, 2)
    assert run.p50_ms == 2.0
    assert run.p99_ms == 50.0  # the 198th of 200: the slow slice's tail, pooled with the calm one
    assert run.moves_per_cpu_s == 200 / 0.1
    assert math.isclose(run.server_wait, 0.1)
    assert math.isclose(run.load_wait, 0.2)
    assert math.isclose(run.server_busy, 0.1)  # 0.1 CPU-second in a second of slices


def test_a_runs_busy_share_is_per_server_process() -> None:
    one = _slice([1.0], 0.4, (0.0, 0.0), processes=2)
    other = _slice([1.0], 0.2, (0.0, 0.0), processes=1)

    assert math.isclose(Paced.of([one, other]).server_busy, (0.2 + 0.2) / 1.0)


def test_a_run_that_used_no_measurable_cpu_has_no_rate() -> None:
    assert math.isnan(Paced.of([_slice([1.0], 0.0, (0.0, 0.0))]).moves_per_cpu_s)
