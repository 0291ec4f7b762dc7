"""The race server under load, every figure beside the ideal path of the same run.

Bot players connect over loopback; load generators run in processes of their own
(`bench.loadgen`). The ideal path (`bench.ideal_server`: websockets, msgpack, one
Redis round trip, ack and broadcast, no engine) shows the least a move can cost on
this stack, so each figure is also a ratio that holds on a busy machine:

- latency: the ideal path's saturation is measured first; then the ideal path and
  the full server are paced at half of it and their ack p99 compared. The full
  server is also paced at half of its own saturation, which loads it as much as
  the ideal path's pace loads the ideal path: the two p99s at equal load show
  whether the full server's tail comes from the way it handles a move or only
  from the extra CPU each move costs it;
- scale-out: the same rooms and pace on two server processes, each room's players
  spread over both: moves per server CPU-second and ack p99 against one process,
  for the ideal path (its processes share rooms through Redis pub/sub, as the full
  server's do) and for the full server;
- capacity (with ``--capacity-rooms``; ``make bench-capacity`` gives 2,500 rooms,
  10,000 players, which take minutes to seat): one process holding them; server
  memory per player, and ack p99 at the same pace against the process holding
  ``--rooms`` rooms.

The full servers run with dead-end checks held off (`bench._procs.NO_DEAD_END_CHECKS`):
the bots' random walks would make every racer look stuck, and the solver jobs would
share the servers' core uncounted.

Before any phase every system is warmed up (``--warmup`` seconds of saturation, not
reported), so that every player has moved once: a player's first move reads its game
from Redis, and the capacity system, which has no saturation phase of its own, would
otherwise pay that in its paced runs. Every phase runs ``--repeats`` times,
interleaved across the systems; figures are medians with the [lowest-highest] run,
and ratios are taken run by run. Each paced run is cut into ``--slices`` slices, and
the systems take turns slice by slice: this machine has slow spells seconds long (an
ack p99 over a quarter second goes from 2 ms to 40 ms and back, on either path), and
turns of half a second let every system meet each spell alike, where whole runs of
five seconds each would leave the ratio to which run a spell fell on. The Valkey all
systems share never rewrites its append-only file during a run (`NO_AOF_REWRITES`).

Run: python -m bench.server_bench [--rooms N] [--capacity-rooms N] [--repeats N]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import tempfile
from pathlib import Path

import redis

from bench._rig import Paced, Rig, Slice
from bench._server_report import OWN_PACE, Runs, report
from bench.loadgen import raise_open_files_limit
from server.ops.embedded import EmbeddedValkey

NO_AOF_REWRITES = ("auto-aof-rewrite-percentage", 0)
"""The bench's Valkey keeps its append-only file, fsynced every second, but never
rewrites it on its own. A run appends tens of megabytes, so Valkey would otherwise fork a
rewrite every minute or so, and the child's seconds of CPU on the core that Redis and the
load generators share would stall whichever system happened to be measured then: a
latency tail set by the run's schedule, not by the system under test."""

CPUS = sorted(os.sched_getaffinity(0))
"""With two cores or more (and no ``--no-pin``), the servers get a core; Redis and the
load generators share another, so runs do not depend on where the scheduler puts them.
On a machine busy with other work, that core is shared with it: ``--no-pin`` lets the
scheduler move every process to whichever core is free."""


def start_rigs(url: str, args: argparse.Namespace, stack: contextlib.ExitStack) -> dict[str, Rig]:
    server_cpu = CPUS[0] if args.pin else None
    rooms = range(args.rooms)
    plan: list[tuple[str, str, int, range, int]] = [
        ("ideal", "ideal", 1, rooms, 1),
        ("full", "full", 1, rooms, 1),
        ("ideal x2", "ideal", 2, rooms, 1),
        ("full x2", "full", 2, rooms, 1),
    ]
    if args.capacity_rooms:
        plan.append(("capacity", "full", 1, range(args.capacity_rooms), args.loadgens))
    rigs: dict[str, Rig] = {}
    for name, kind, processes, some_rooms, loadgens in plan:
        rig = Rig.start(
            name,
            kind,
            url,
            processes=processes,
            rooms=some_rooms,
            players=args.players,
            loadgens=loadgens,
            cpu=server_cpu,
        )
        stack.callback(rig.stop)
        rigs[name] = rig
        print(f"  {name}: {rig.bots:,} players connected", flush=True)
    return rigs


def measure(url: str, args: argparse.Namespace) -> Runs:
    with contextlib.ExitStack() as stack:
        rigs = start_rigs(url, args, stack)
        runs = Runs(kib_per_player={name: rig.kib_per_player() for name, rig in rigs.items()})
        for rig in rigs.values():
            rig.saturate(args.warmup)
        for _ in range(args.repeats):
            runs.saturation["ideal"].append(rigs["ideal"].saturate(args.saturate))
            runs.saturation["full"].append(rigs["full"].saturate(args.saturate))
        runs.rate = statistics.median(run.moves_per_s for run in runs.saturation["ideal"]) / 2
        runs.own_rate = statistics.median(run.moves_per_s for run in runs.saturation["full"]) / 2
        print(f"  pacing at {runs.rate:,.0f} moves/s", flush=True)
        paces = [(name, rig, runs.rate) for name, rig in rigs.items()]
        paces.append((OWN_PACE, rigs["full"], runs.own_rate))
        for _ in range(args.repeats):
            slices: dict[str, list[Slice]] = {name: [] for name, _, _ in paces}
            for _ in range(args.slices):
                for name, rig, rate in paces:
                    slices[name].append(rig.pace(rate, args.paced / args.slices))
            for name, taken in slices.items():
                runs.paced[name].append(Paced.of(taken))
        return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--capacity-rooms", type=int, default=0, help="rooms for capacity (2500); 0: skip"
    )
    parser.add_argument("--loadgens", type=int, default=2, help="load generators for capacity")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--saturate", type=float, default=5.0)
    parser.add_argument("--paced", type=float, default=5.0)
    parser.add_argument("--slices", type=int, default=10, help="turns each paced run is cut into")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-pin", dest="pin", action="store_false")
    args = parser.parse_args()
    args.pin = args.pin and len(CPUS) >= 2
    raise_open_files_limit()
    if args.pin:
        os.sched_setaffinity(0, {CPUS[1]})
    with tempfile.TemporaryDirectory() as data:
        valkey = EmbeddedValkey(Path(data))
        url = valkey.start()
        try:
            with redis.Redis.from_url(url) as client:
                client.config_set(*NO_AOF_REWRITES)
            runs = measure(url, args)
        finally:
            valkey.stop()
    where = "servers pinned to one core, Redis and load to the other" if args.pin else "unpinned"
    print(f"{args.players} players a room, loopback, {where}; {args.repeats} runs each")
    report(runs, args)


if __name__ == "__main__":
    main()
