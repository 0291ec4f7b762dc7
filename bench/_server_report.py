"""The server benchmark's tables: each figure, the ideal path's beside it, the ratio and
whether its target is met (on the median of the run-by-run ratios)."""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench._rig import Paced, Saturation
from bench._stats import Spread, ratios

LATENCY_P99_MAX = 1.5
"""Full server ack p99 over the ideal path's, at the same pace."""
SCALE_CPU_MIN = 0.85
"""Moves per server CPU-second, two processes over one."""
SCALE_P99_MAX = 1.5
"""Ack p99, two processes over one."""
CAPACITY_P99_MAX = 2.0
"""Ack p99, the process holding the capacity rooms over the one holding the usual rooms."""
CAPACITY_KIB_MAX = 30.0
"""Server memory per connected player, KiB."""
OWN_PACE = "full, own pace"
"""The full server paced at half of its own saturation, as the ideal path is at half of its."""


@dataclass
class Runs:
    """Every run of every phase, by system ("ideal", "full", "full x2", "capacity")."""

    kib_per_player: dict[str, float]
    saturation: dict[str, list[Saturation]] = field(default_factory=lambda: defaultdict(list))
    paced: dict[str, list[Paced]] = field(default_factory=lambda: defaultdict(list))
    rate: float = math.nan
    """Half the ideal path's saturation: the pace of every system but `OWN_PACE`."""
    own_rate: float = math.nan
    """Half the full server's saturation: the pace of `OWN_PACE`."""


@dataclass(frozen=True)
class Row:
    label: str
    figures: Sequence[Spread]
    ratio: Spread
    target: str = ""
    met: bool | None = None

    def format(self, spec: str) -> str:
        cells = "".join(f"{figure.format(spec):>26}" for figure in self.figures)
        verdict = "" if self.met is None else ("met" if self.met else "NOT MET")
        return f"{self.label:26}{cells}{self.ratio.format('.2f'):>20}  {self.target} {verdict}"


def _paced(runs: Runs, names: Sequence[str], figure: str) -> list[list[float]]:
    """For each system of `names`, `figure` of each of its paced runs."""
    return [[getattr(run, figure) for run in runs.paced[name]] for name in names]


def _saturated(runs: Runs, names: Sequence[str], figure: str) -> list[list[float]]:
    return [[getattr(run, figure) for run in runs.saturation[name]] for name in names]


def _row(
    label: str, columns: Sequence[list[float]], target: str = "", test: str | None = None
) -> Row:
    """Columns of runs; the ratio is last column over the one before, run by run."""
    ratio = ratios(columns[-1], columns[-2])
    met = None if test is None else _meets(ratio.median, test)
    return Row(label, [Spread.of(column) for column in columns], ratio, target, met)


def _meets(value: float, test: str) -> bool:
    """`value` against a bound written ``<=1.5`` or ``>=0.85``."""
    bound = float(test[2:])
    return value <= bound if test.startswith("<=") else value >= bound


def _header(columns: Sequence[str], ratio: str) -> str:
    cells = "".join(f"{column:>26}" for column in columns)
    return f"{'':26}{cells}{ratio:>20}  target"


def latency_rows(runs: Runs) -> list[tuple[Row, str]]:
    names = ("ideal", "full")
    rate = f"@{runs.rate:,.0f}/s"
    p99 = f"<={LATENCY_P99_MAX}"
    return [
        (_row("moves/s at saturation", _saturated(runs, names, "moves_per_s")), ",.0f"),
        (_row("server CPU us/move", _saturated(runs, names, "cpu_us_per_move")), ",.0f"),
        (_row(f"ack p50 ms {rate}", _paced(runs, names, "p50_ms")), ".2f"),
        (_row(f"ack p99 ms {rate}", _paced(runs, names, "p99_ms"), p99, p99), ".2f"),
        (_row(f"server busy {rate}", _paced(runs, names, "server_busy")), ".0%"),
        (_row("server KiB per player", [[runs.kib_per_player[name]] for name in names]), ".1f"),
    ]


def equal_load_rows(runs: Runs) -> list[tuple[Row, str]]:
    """Each path at half its own saturation: the p99s of two servers loaded alike."""
    names = ("ideal", OWN_PACE)
    return [
        (_row("ack p50 ms", _paced(runs, names, "p50_ms")), ".2f"),
        (_row("ack p99 ms", _paced(runs, names, "p99_ms")), ".2f"),
        (_row("server busy", _paced(runs, names, "server_busy")), ".0%"),
    ]


def scale_rows(runs: Runs) -> list[tuple[Row, str]]:
    """Each path on one and on two processes, and its 2/1 ratio."""
    ideal, full = ("ideal", "ideal x2"), ("full", "full x2")
    cpu, p99 = f">={SCALE_CPU_MIN}", f"<={SCALE_P99_MAX}"
    return [
        (_row("ideal: moves/CPU-s", _paced(runs, ideal, "moves_per_cpu_s")), ",.0f"),
        (_row("full: moves/CPU-s", _paced(runs, full, "moves_per_cpu_s"), cpu, cpu), ",.0f"),
        (_row("ideal: ack p99 ms", _paced(runs, ideal, "p99_ms")), ".2f"),
        (_row("full: ack p99 ms", _paced(runs, full, "p99_ms"), p99, p99), ".2f"),
    ]


def scale_against_ideal_rows(runs: Runs) -> list[tuple[Row, str]]:
    """The 2/1 ratios of both paths, run by run, and the full server's over the ideal
    path's: 1.00 means a second process costs the server what it costs the ideal path."""
    rows = []
    for label, figure in (("moves/CPU-s", "moves_per_cpu_s"), ("ack p99 ms", "p99_ms")):
        columns = [_two_over_one(runs, name, figure) for name in ("ideal", "full")]
        rows.append((_row(label, columns), ".2f"))
    return rows


def _two_over_one(runs: Runs, name: str, figure: str) -> list[float]:
    one, two = _paced(runs, (name, f"{name} x2"), figure)
    return [run_2 / run_1 for run_1, run_2 in zip(one, two, strict=True)]


def capacity_rows(runs: Runs) -> list[tuple[Row, str]]:
    names = ("ideal", "full", "capacity")
    kib = [[runs.kib_per_player[name]] for name in names]
    row = _row("server KiB per player", kib)
    kib_met = kib[-1][0] < CAPACITY_KIB_MAX
    p99 = f"<={CAPACITY_P99_MAX}"
    return [
        (Row(row.label, row.figures, row.ratio, f"<{CAPACITY_KIB_MAX:.0f} KiB", kib_met), ".1f"),
        (_row("ack p99 ms", _paced(runs, names, "p99_ms"), p99, p99), ".2f"),
    ]


def _table(title: str, columns: Sequence[str], ratio: str, rows: list[tuple[Row, str]]) -> None:
    print(f"\n{title}")
    print(_header(columns, ratio))
    for row, spec in rows:
        print(row.format(spec))


def _waits(runs: Runs) -> None:
    """How long each system's processes waited for a CPU other work held, while paced.

    A latency tail is made of stalls; on a machine shared with other work most stalls
    are waits for a CPU, which no change to the server removes. A run where the servers
    or the load generators waited much is a run whose p99 says little about the server.
    """
    print("\nWaiting for a CPU while paced (share of the run; median [lowest-highest] run)")
    print(f"{'':26}{'each server process':>26}{'each load generator':>26}")
    for name, paced in runs.paced.items():
        server = Spread.of([run.server_wait * 100 for run in paced]).format(".0f")
        load = Spread.of([run.load_wait * 100 for run in paced]).format(".0f")
        print(f"{name:26}{server + ' %':>26}{load + ' %':>26}")


def _shortfalls(runs: Runs) -> None:
    for name, paced in runs.paced.items():
        missed = sum(run.missed for run in paced)
        exhausted = sum(run.exhausted for run in paced)
        busy = sum(run.busy for run in paced)
        if missed or exhausted or busy:
            sent = sum(run.sent for run in paced)
            print(
                f"  {name}, paced: of {sent} moves sent, {missed} more were due while every bot "
                f"waited; {exhausted} bots ran out of moves; {busy} requests got server/busy"
            )


def report(runs: Runs, args: argparse.Namespace) -> None:
    players = f"{args.rooms * args.players:,} players"
    _table(
        f"Latency: {players}, paced at half the ideal path's saturation",
        ["ideal path", "full server"],
        "full/ideal",
        latency_rows(runs),
    )
    _table(
        "Latency at equal load, each path paced at half its own saturation (no target)",
        [f"ideal path @{runs.rate:,.0f}/s", f"full server @{runs.own_rate:,.0f}/s"],
        "full/ideal",
        equal_load_rows(runs),
    )
    _table(
        f"Scale-out: {players} on 1 and on 2 server processes, same pace",
        ["1 process", "2 processes"],
        "2/1",
        scale_rows(runs),
    )
    _table(
        "Scale-out, the full server against the ideal path",
        ["ideal path, 2/1", "full server, 2/1"],
        "full/ideal",
        scale_against_ideal_rows(runs),
    )
    if "capacity" in runs.paced:
        _table(
            f"Capacity: one process with {args.capacity_rooms * args.players:,} players, same pace",
            ["ideal path", players, "capacity"],
            "capacity/usual",
            capacity_rows(runs),
        )
    _waits(runs)
    _shortfalls(runs)
