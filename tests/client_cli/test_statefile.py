"""The saved resume token: where it lives, who may read it, and bad files."""

from __future__ import annotations

import stat
from pathlib import Path

from client_cli.statefile import SavedSession, forget, load, save, state_path


def test_the_path_follows_xdg_state_home(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path)}
    assert state_path(env) == tmp_path / "solrace" / "session.json"
    assert state_path({}) == Path.home() / ".local" / "state" / "solrace" / "session.json"


def test_a_saved_session_reads_back_and_only_its_owner_may_read_it(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "session.json"
    for seat in (2, None):
        saved = SavedSession("ws://h:1", "K7PQ2M", "a" * 24, seat, last_seq=9)
        save(path, saved)
        assert load(path) == saved
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    forget(path)
    forget(path)
    assert load(path) is None


def test_an_unreadable_file_is_no_session(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    for text in (
        "{",
        "[]",
        '{"server": "x"}',
        '{"server": "x", "code": "y", "token": "z", "seat": "one"}',
    ):
        path.write_text(text)
        assert load(path) is None
