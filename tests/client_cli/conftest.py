"""The URL of the test's race server (`race_server` in tests/conftest.py)."""

from __future__ import annotations

import pytest

from server.app import RaceServer


@pytest.fixture
def server_url(race_server: RaceServer) -> str:
    return f"ws://127.0.0.1:{race_server.port}"
