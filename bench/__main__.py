"""Run every benchmark: each module ``bench/<name>_bench.py``, one after another.

Each runs in a process of its own (``python -m bench.<name>_bench``), so one
benchmark's imports, event loop or memory never colour another's figures.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

SUFFIX = "_bench"


def benchmark_modules() -> list[str]:
    """Module names of the benchmarks in this package, in name order."""
    here = Path(__file__).parent
    return sorted(f"bench.{path.stem}" for path in here.glob(f"*{SUFFIX}.py"))


def main() -> int:
    failed: list[str] = []
    for module in benchmark_modules():
        print(f"== {module}", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, "-m", module])
        print(f"== {module}: {time.perf_counter() - start:.1f} s, exit {code}\n", flush=True)
        if code:
            failed.append(module)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
