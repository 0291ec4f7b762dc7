"""The bot process's resident memory, for its ``load`` lines."""

from __future__ import annotations

import os
import resource
from pathlib import Path

STATM = Path("/proc/self/statm")


def rss_bytes() -> int:
    """Resident memory now (Linux); elsewhere the peak so far."""
    try:
        resident_pages = int(STATM.read_text(encoding="ascii").split()[1])
    except (OSError, IndexError, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return resident_pages * os.sysconf("SC_PAGE_SIZE")
