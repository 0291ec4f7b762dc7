"""Ghosts in a challenge room, pure: the steps due, and a step applied as its event told."""

from __future__ import annotations

from dataclasses import replace

from protocol import Settings, events
from server.lifecycle import ghosts
from server.lifecycle import race as races
from server.lifecycle import room as r
from server.lifecycle.state import Ghost

SECRET = bytes(range(32))
T0 = 1_000_000
START = T0 + 1_000
ANN = Ghost("Ann", True, ((0, 0, 0), (1_500, 1, 1), (40_500, 3, 27)), "won")
BOB = Ghost("Bob", True, ((0, 0, 0), (3_000, 1, 2)), "resigned")


def _racing() -> r.Room:
    """Cid racing since `START` against Ann's and Bob's runs."""
    room = r.create(
        "ABC234", "little-forty", Settings(countdown_s=1), "Cid", SECRET, process="p1", token="t"
    ).room
    room = replace(room, ghosts=(ANN, BOB), challenge="CHALNG")
    room = r.set_ready(room, 0, True, T0).room
    return races.start(room, START).room


def _shown(room: r.Room, now: int) -> tuple[r.Room, list[events.GhostProgress]]:
    """`ghosts.play`: the room after, and its events (each a ghost's step)."""
    shown = ghosts.play(room, now)
    steps = [event for event in shown.events if isinstance(event, events.GhostProgress)]
    assert len(steps) == len(shown.events)
    return shown.room, steps


def test_each_step_is_due_at_the_start_plus_its_race_time() -> None:
    room = _racing()
    assert ghosts.next_step_ms(room) == START
    after, steps = _shown(room, START + 1_500)
    assert [(e.ghost, e.progress, e.at_ms) for e in steps] == [
        (0, 0, START),
        (1, 0, START),
        (0, 1, START + 1_500),
    ]
    assert ghosts.next_step_ms(after) == START + 3_000


def test_an_event_applied_to_a_copy_gives_the_room_its_save_made() -> None:
    room = _racing()
    after, steps = _shown(room, START + 1_500)
    copy = room
    for event in steps:
        applied = ghosts.with_shown(copy, event.race_no, event.ghost, event.at_ms)
        assert applied is not None
        copy = applied
    assert copy == after
    again = ghosts.with_shown(copy, room.race_no, 0, START)
    assert again == copy


def test_an_event_of_no_step_of_this_race_applies_to_nothing() -> None:
    room = _racing()
    assert ghosts.with_shown(room, room.race_no, 0, START + 1) is None
    assert ghosts.with_shown(room, room.race_no, 2, START) is None
    assert ghosts.with_shown(room, room.race_no + 1, 0, START) is None
