"""How a server process keeps garbage collection off the move path."""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 50_000
"""Allocations between two young-generation collections (Python's default is 700)."""


def freeze_startup() -> None:
    """Move what start-up allocated out of the collector's way.

    Objects alive now (modules, schemas, tables) live as long as the process, so
    they are frozen out of garbage collection; a higher young-generation
    threshold makes collections rarer, which keeps long pauses off the move path.
    Call once, when the process is ready to serve.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 20, 100)
