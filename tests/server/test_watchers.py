"""Counting spectators by token: a spectator back on a new socket is counted once."""

from __future__ import annotations

import pytest

import protocol as p
from protocol import ErrorCode
from server import room as r
from server import watchers
from server.room import RoomError, Watcher

SECRET = b"spectator count secret".ljust(32)


def _room() -> r.Room:
    return r.create("ABC234", "little-forty", p.Settings(), "Ann", SECRET).room


def test_a_spectator_is_counted_in_any_phase_and_leaves() -> None:
    room, events = watchers.watch(_room(), "eve", "p1")
    assert room.spectators == 1 and events == (p.SpectatorCount(count=1),)
    room, events = watchers.watch(room, "dan", "p2")
    assert room.watchers == (Watcher("eve", "p1"), Watcher("dan", "p2"))
    assert events == (p.SpectatorCount(count=2),)
    room, events = watchers.unwatch(room, "eve", "p1")
    assert room.watchers == (Watcher("dan", "p2"),) and events == (p.SpectatorCount(count=1),)


def test_a_spectator_back_under_the_same_token_is_not_counted_twice() -> None:
    room = watchers.watch(_room(), "eve", "p1").room
    moved, events = watchers.watch(room, "eve", "p2")
    assert moved.watchers == (Watcher("eve", "p2"),) and events == ()
    assert watchers.watch(moved, "eve", "p2") == r.Transition(moved)


def test_the_old_socket_leaving_late_does_not_drop_a_spectator_who_came_back() -> None:
    room = watchers.watch(watchers.watch(_room(), "eve", "p1").room, "eve", "p2").room
    assert watchers.unwatch(room, "eve", "p1") == r.Transition(room)
    assert watchers.unwatch(room, "nobody", "p2") == r.Transition(room)


def test_the_spectators_of_processes_gone_are_dropped_together() -> None:
    room = _room()
    for token, process in [("a", "p1"), ("b", "p2"), ("c", "p1"), ("d", "p3")]:
        room = watchers.watch(room, token, process).room
    room, events = watchers.drop_processes(room, {"p1", "p3"})
    assert room.watchers == (Watcher("b", "p2"),) and events == (p.SpectatorCount(count=1),)
    assert watchers.drop_processes(room, {"p9"}) == r.Transition(room)


def test_spectator_places_are_limited_but_a_counted_spectator_may_come_back() -> None:
    room = _room()
    for number in range(p.limits.MAX_SPECTATORS):
        room = watchers.watch(room, f"t{number}", "p1").room
    with pytest.raises(RoomError) as refused:
        watchers.watch(room, "one more", "p1")
    assert refused.value.code is ErrorCode.ROOM_FULL
    back = watchers.watch(room, "t0", "p2").room
    assert back.spectators == p.limits.MAX_SPECTATORS


def test_the_count_survives_storage() -> None:
    room = watchers.watch(_room(), "eve", "p1").room
    assert r.from_bytes(r.to_bytes(room)) == room
    assert r.snapshot(room, {}).spectators == 1
