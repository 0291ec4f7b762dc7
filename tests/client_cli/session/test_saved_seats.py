"""Saved seats: one file per (server, room, seat), readable by its owner alone; a
host's saved seat holds its bots' tokens too."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from client_cli.session.saved_seats import (
    SavedSeat,
    forget,
    load,
    load_all,
    save,
    seat_path,
    state_dir,
)


def test_the_directory_follows_xdg_state_home(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path)}
    assert state_dir(env) == tmp_path / "solrace" / "rooms"
    assert state_dir({}) == Path.home() / ".local" / "state" / "solrace" / "rooms"


def test_each_server_room_and_seat_has_its_own_file(tmp_path: Path) -> None:
    seats_dir = tmp_path / "deep"
    seats = [
        SavedSeat(
            "ws://h:1",
            "K7PQ2M",
            "a" * 24,
            0,
            last_seq=9,
            variant="little-forty",
            name="Ada",
            practice=True,
            bots=("f" * 24, "g" * 24),
            bot_speed=2.5,
            saved_at=1_800_000_000.5,
            ends_at=1_800_000_600.25,
        ),
        SavedSeat("ws://h:1", "K7PQ2M", "b" * 24, 1, saved_at=1.0),
        SavedSeat("ws://h:1", "K7PQ2M", "c" * 24, None, saved_at=1.0),
        SavedSeat("ws://other:2", "K7PQ2M", "d" * 24, 0, saved_at=1.0),
        SavedSeat("ws://h:1", "ABC234", "e" * 24, 2, saved_at=1.0),
    ]
    for saved in seats:
        save(seats_dir, saved)
    assert len(set(seats_dir.iterdir())) == 5
    assert load_all(seats_dir) == [seats[4], seats[2], seats[0], seats[3], seats[1]]
    path = seat_path(seats_dir, "ws://h:1", "K7PQ2M", 0)
    assert load(path) == seats[0]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    forget(seats_dir, "ws://h:1", "K7PQ2M", 0)
    forget(seats_dir, "ws://h:1", "K7PQ2M", 0)
    assert seats[0] not in load_all(seats_dir) and len(load_all(seats_dir)) == 4


def test_a_seat_saved_by_an_older_client_reads_with_no_bots_saved_when_its_file_was(
    tmp_path: Path,
) -> None:
    path = tmp_path / "K7PQ2M-seat1-0123456789ab.json"
    path.write_text(
        '{"server": "ws://h:1", "code": "K7PQ2M", "token": "tttttttttttttttt", "seat": 0}'
    )
    os.utime(path, (1234.0, 1234.0))
    assert load(path) == SavedSeat("ws://h:1", "K7PQ2M", "t" * 16, 0, saved_at=1234.0)


def test_an_unreadable_saved_seat_is_skipped(tmp_path: Path) -> None:
    good = SavedSeat("ws://h:1", "K7PQ2M", "a" * 24, 0, saved_at=1.0)
    save(tmp_path, good)
    for number, text in enumerate(
        ("{", "[]", '{"server": "x"}', '{"server": "x", "code": "y", "token": "z", "seat": "one"}')
    ):
        (tmp_path / f"bad{number}.json").write_text(text)
        assert load(tmp_path / f"bad{number}.json") is None
    assert load_all(tmp_path) == [good]
    assert load_all(tmp_path / "missing") == []
