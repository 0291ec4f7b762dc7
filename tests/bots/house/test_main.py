"""``python -m bots.house`` as the server starts it: it says ``up``, logs refused
lines on standard error, and exits cleanly on ``stop`` or at the end of its input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bots.house.memory import rss_bytes

TIMEOUT_S = 60


@pytest.mark.parametrize("ending", ['{"op": "stop"}\n{"op": "bogus"}\n', ""])
def test_the_process_says_up_and_ends_on_stop_or_the_end_of_its_input(ending: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bots.house", "--server", "ws://127.0.0.1:9"],
        input=f"not a command\n{ending}",
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["op"] for line in lines] == ["up"] and lines[0]["pid"] > 0
    assert "refused command 'not a command': not JSON" in done.stderr
    assert "bogus" not in done.stderr, "nothing is read after stop"


def test_the_process_knows_its_resident_memory() -> None:
    assert 1_000_000 < rss_bytes() < 10_000_000_000
