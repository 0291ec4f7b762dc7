"""Snapshot files: expected text kept under snapshots/, compared exactly.

Run with SOLRACE_UPDATE_SNAPSHOTS=1 to rewrite them after a deliberate change,
then read the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

SNAPSHOTS = Path(__file__).parent / "snapshots"


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("SOLRACE_UPDATE_SNAPSHOTS") == "1":
        path.write_text(text + "\n", encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}; make it with SOLRACE_UPDATE_SNAPSHOTS=1"
    assert text + "\n" == path.read_text(encoding="utf-8")
