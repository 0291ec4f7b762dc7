"""Fixtures of the store and embedded-server tests that need a Valkey of their own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.embedded import EmbeddedValkey


@pytest.fixture
def private_valkey(tmp_path: Path) -> Iterator[EmbeddedValkey]:
    """A started Valkey only this test uses, so it may restart or flush it."""
    valkey = EmbeddedValkey(tmp_path / "valkey")
    valkey.start()
    yield valkey
    valkey.stop()
