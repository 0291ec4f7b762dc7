"""The pure deadline rules of a race: what falls due when, the idle limit, ending early."""

from __future__ import annotations

from dataclasses import replace

import pytest

import protocol as p
from protocol import ErrorCode
from protocol.limits import IDLE_WARNING_S
from server.lifecycle import race
from server.lifecycle import room as r

SECRET = bytes(range(32))
T0 = 1_000_000
START = T0 + 2_000
END = START + 600_000
LIMIT_MS = 60_000
WARN_MS = IDLE_WARNING_S * 1000
IDLE = p.Settings(countdown_s=2, time_limit_s=600, idle_limit_s=LIMIT_MS // 1000)


def _racing(settings: p.Settings = IDLE) -> r.Room:
    """Ann, Bob and Cy racing since `START`."""
    room = r.create(
        "ABC234", "little-forty", settings, "Ann", SECRET, process="p1", token="t-Ann"
    ).room
    for name in ("Bob", "Cy"):
        _, (room, _) = r.join(room, name, "p1", f"t-{name}")
    for player in room.players:
        room = r.set_ready(room, player.seat, True, T0).room
    return race.start(room, START).room


def test_deadlines_run_from_the_countdown_to_the_time_limit() -> None:
    room = r.create("ABC234", "little-forty", IDLE, "Ann", SECRET, process="p1", token="t-Ann").room
    assert race.deadline(room) is None
    counting = r.set_ready(room, 0, True, T0).room
    assert race.deadline(counting) == START
    racing = race.start(counting, START).room
    assert race.deadline(racing) == race.next_deadline(racing, {}) == END


def test_the_idle_clock_starts_at_the_first_finish_or_the_last_move() -> None:
    room = race.player_finished(_racing(), 0, "resigned", START + 5_000).room
    first_due = START + 5_000 + LIMIT_MS - WARN_MS
    assert race.deadline(room) == first_due
    assert race.next_deadline(room, {1: START + 9_000}) == first_due
    assert race.next_deadline(room, {1: START + 9_000, 2: START + 7_000}) == START + 7_000 + (
        LIMIT_MS - WARN_MS
    )
    assert race.idle_step(room, {}, first_due - 1, ()) == r.Transition(room)


def test_a_warning_announces_the_timeout_and_a_late_one_gives_the_full_warning() -> None:
    room = race.player_finished(_racing(), 0, "won", START).room
    last = {2: START + 30_000}
    warned, events = race.idle_step(room, last, START + LIMIT_MS - WARN_MS, ())
    assert events == (p.IdleWarning(seat=1, timeout_at_ms=START + LIMIT_MS),)
    assert race.next_deadline(warned, last) == START + LIMIT_MS
    late_at = START + 30_000 + LIMIT_MS
    late, events = race.idle_step(warned, last, late_at, ())
    assert events == (p.IdleWarning(seat=2, timeout_at_ms=late_at + WARN_MS),)
    assert race.idle_timeouts(late, last, START + LIMIT_MS) == [1]
    assert race.idle_timeouts(late, {**last, 1: START + LIMIT_MS - 1}, START + LIMIT_MS) == []
    assert race.idle_timeouts(late, last, late_at + WARN_MS) == [1, 2]


def test_a_warning_stands_until_its_racer_moves() -> None:
    room = race.player_finished(_racing(), 0, "won", START).room
    assert race.standing_warnings(room, {}) == {}
    warned = race.idle_step(room, {2: START + 30_000}, START + LIMIT_MS - WARN_MS, ()).room
    assert race.standing_warnings(warned, {2: START + 30_000}) == {1: START + LIMIT_MS}
    assert race.standing_warnings(warned, {1: START + LIMIT_MS - 1}) == {}
    assert race.standing_warnings(race.player_finished(warned, 1, "resigned", START).room, {}) == {}


def test_an_idle_timeout_finishes_at_the_announced_instant() -> None:
    room = race.player_finished(_racing(), 0, "won", START).room
    room = race.idle_step(room, {}, START + LIMIT_MS - WARN_MS, ()).room
    room, events = race.idle_step(room, {}, START + LIMIT_MS + 500, [1])
    assert events == (
        p.PlayerFinished(seat=1, outcome="timeout", at_ms=START + LIMIT_MS, elapsed_ms=LIMIT_MS),
    )
    assert [player.outcome for player in room.players] == ["won", "timeout", "playing"]


def test_no_warning_for_a_timeout_the_time_limit_comes_first() -> None:
    room = race.player_finished(_racing(), 0, "won", END - LIMIT_MS + 1).room
    assert race.idle_step(room, {}, END - WARN_MS + 1, ()) == r.Transition(room)


def test_no_idle_limit_means_no_idle_deadline() -> None:
    room = race.player_finished(
        _racing(p.Settings(countdown_s=2, time_limit_s=600)), 0, "won", START
    )
    assert race.deadline(room.room) == END
    assert race.idle_step(room.room, {}, END - 1, ()) == r.Transition(room.room)


def test_the_host_ends_a_race_for_everyone_still_racing() -> None:
    room = race.player_finished(_racing(), 1, "resigned", START + 1_000).room
    ended, events = race.end_race(room, 0, START + 4_000)
    assert events == tuple(
        p.PlayerFinished(
            seat=seat, outcome="timeout", at_ms=START + 4_000, elapsed_ms=4_000, ended_by=0
        )
        for seat in (0, 2)
    )
    assert race.is_over(ended)
    only = race.end_race(room, 0, START + 4_000, seats=[2]).room
    assert [player.outcome for player in only.players] == ["playing", "resigned", "timeout"]
    late = race.end_race(room, 0, END + 5_000).room
    assert {player.finished_at_ms for player in late.players} == {START + 1_000, END}


def _stopped_by(events: tuple[p.RoomEvent, ...]) -> list[tuple[int, int | None]]:
    """Each finish and the host who ended it (None: not the host)."""
    return [(e.seat, e.ended_by) for e in events if isinstance(e, p.PlayerFinished)]


def test_a_race_the_host_ends_early_says_so_until_the_rematch() -> None:
    room = race.player_finished(_racing(), 1, "resigned", START + 1_000).room
    ended, events = race.end_race(room, 0, START + 4_000)
    assert ended.ended_by_host == p.HostEnd(seat=0, elapsed_ms=4_000)
    assert _stopped_by(events) == [(0, 0), (2, 0)]
    over = race.finish_race(ended, {}, START + 4_000)
    (shown,) = over.events
    assert isinstance(shown, p.RaceOver)
    assert shown.ended_by_host == p.HostEnd(seat=0, elapsed_ms=4_000)
    assert race.results(over.room, {}) == shown
    assert r.from_bytes(r.to_bytes(over.room)) == over.room
    assert race.rematch(over.room, 0, b"n" * 32, {}).room.ended_by_host is None


def test_a_race_the_time_limit_ended_first_is_not_ended_by_the_host() -> None:
    room = _racing()
    late, events = race.end_race(room, 0, END + 5_000)
    assert late.ended_by_host is None
    assert _stopped_by(events) == [(0, None), (1, None), (2, None)]
    nobody = race.end_race(room, 0, START + 4_000, seats=[])
    assert nobody == r.Transition(room), "everyone had finished by then: nobody was stopped"
    timed_out = race.expire(room, END)
    assert timed_out.room.ended_by_host is None
    assert _stopped_by(timed_out.events) == [(0, None), (1, None), (2, None)]


@pytest.mark.parametrize(
    ("room", "seat", "code"),
    [
        (_racing(), 1, ErrorCode.ROOM_NOT_HOST),
        (replace(_racing(), phase="finished"), 0, ErrorCode.ROOM_WRONG_PHASE),
    ],
)
def test_only_the_host_ends_a_race_and_only_a_running_one(
    room: r.Room, seat: int, code: ErrorCode
) -> None:
    with pytest.raises(r.RoomError) as caught:
        race.end_race(room, seat, START)
    assert caught.value.code == code and caught.value.message
