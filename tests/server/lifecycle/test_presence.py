"""Who is held by which process: spectators counted once by token, and what is let
go when a process is gone."""

from __future__ import annotations

import pytest

import protocol as p
from protocol import ErrorCode
from server.lifecycle import presence, race
from server.lifecycle import room as r
from server.lifecycle.room import RoomError, Watcher

SECRET = b"spectator count secret".ljust(32)


T0 = 1_000_000


def _room() -> r.Room:
    return r.create(
        "ABC234", "little-forty", p.Settings(), "Ann", SECRET, process="p1", token="t-Ann"
    ).room


def test_a_spectator_is_counted_in_any_phase_and_leaves() -> None:
    room, events = presence.watch(_room(), "eve", "p1")
    assert room.spectators == 1 and events == (p.SpectatorCount(count=1),)
    room, events = presence.watch(room, "dan", "p2")
    assert room.watchers == (Watcher("eve", "p1"), Watcher("dan", "p2"))
    assert events == (p.SpectatorCount(count=2),)
    room, events = presence.unwatch(room, "eve", "p1")
    assert room.watchers == (Watcher("dan", "p2"),) and events == (p.SpectatorCount(count=1),)


def test_a_spectator_back_under_the_same_token_is_not_counted_twice() -> None:
    room = presence.watch(_room(), "eve", "p1").room
    moved, events = presence.watch(room, "eve", "p2")
    assert moved.watchers == (Watcher("eve", "p2"),) and events == ()
    assert presence.watch(moved, "eve", "p2") == r.Transition(moved)


def test_the_old_socket_leaving_late_does_not_drop_a_spectator_who_came_back() -> None:
    room = presence.watch(presence.watch(_room(), "eve", "p1").room, "eve", "p2").room
    assert presence.unwatch(room, "eve", "p1") == r.Transition(room)
    assert presence.unwatch(room, "nobody", "p2") == r.Transition(room)


def test_the_spectators_of_processes_gone_are_dropped_together() -> None:
    room = _room()
    for token, process in [("a", "p1"), ("b", "p2"), ("c", "p1"), ("d", "p3")]:
        room = presence.watch(room, token, process).room
    room, events = presence.drop_processes(room, {"p1", "p3"}, T0)
    assert room.watchers == (Watcher("b", "p2"),)
    assert events[0] == p.SpectatorCount(count=1)
    assert presence.drop_processes(room, {"p9"}, T0) == r.Transition(room)


def test_the_lobby_seats_of_a_process_gone_are_freed_and_the_host_role_moves_on() -> None:
    room = _room()
    room = r.join(room, "Bob", "p2", "t-Bob")[1].room
    room = r.join(room, "Cy", "p1", "t-Cy")[1].room
    assert presence.holders(room) == {"p1", "p2"}
    room, events = presence.drop_processes(room, {"p1"}, T0)
    assert [player.name for player in room.players] == ["Bob"] and room.host == 1
    assert events == (
        p.PlayerLeft(seat=0, away=False),
        p.HostChanged(seat=1),
        p.PlayerLeft(seat=2, away=False),
    )


def test_the_racers_of_a_process_gone_are_marked_away_and_may_come_back() -> None:
    room = r.join(_room(), "Bob", "p2", "t-Bob")[1].room
    for seat in (0, 1):
        room = r.set_ready(room, seat, True, T0).room
    room = race.start(room, room.start_at_ms or 0).room
    room, events = presence.drop_processes(room, {"p1"}, T0 + 9000)
    assert room.players[0].away and room.host == 1
    assert events == (p.PlayerLeft(seat=0, away=True), p.HostChanged(seat=1))
    assert presence.holders(room) == {"p2"}
    back, events = r.come_back(room, 0, "p3", "t-Ann")
    assert events == (p.PlayerBack(seat=0),) and presence.holders(back) == {"p2", "p3"}


def test_spectator_places_are_limited_but_a_counted_spectator_may_come_back() -> None:
    room = _room()
    for number in range(p.limits.MAX_SPECTATORS):
        room = presence.watch(room, f"t{number}", "p1").room
    with pytest.raises(RoomError) as refused:
        presence.watch(room, "one more", "p1")
    assert refused.value.code is ErrorCode.ROOM_FULL
    back = presence.watch(room, "t0", "p2").room
    assert back.spectators == p.limits.MAX_SPECTATORS


def test_the_count_survives_storage() -> None:
    room = presence.watch(_room(), "eve", "p1").room
    assert r.from_bytes(r.to_bytes(room)) == room
    assert r.snapshot(room, {}).spectators == 1


def test_an_old_socket_closing_late_does_not_mark_away_a_player_back_elsewhere() -> None:
    room = r.join(_room(), "Bob", "p1", "t-Bob")[1].room
    for seat in (0, 1):
        room = r.set_ready(room, seat, True, T0).room
    room = race.start(room, room.start_at_ms or 0).room
    moved = r.come_back(room, 1, "p2", "t-Bob").room
    assert presence.leave(moved, 1, "p1", T0) == r.Transition(moved)
    room, events = presence.leave(moved, 1, "p2", T0)
    assert room.players[1].away and events == (p.PlayerLeft(seat=1, away=True),)


def _racing(*others: tuple[str, str]) -> r.Room:
    """Ann (host, p1) and each (name, process) seated after her, racing."""
    room = _room()
    for name, process in others:
        room = r.join(room, name, process, f"t-{name}")[1].room
    for player in room.players:
        room = r.set_ready(room, player.seat, True, T0).room
    return race.start(room, room.start_at_ms or 0).room


def test_a_live_socket_finds_its_racer_held_let_go_or_held_elsewhere() -> None:
    room = presence.watch(_racing(("Bob", "p2")), "eve", "p1").room
    assert presence.standing(room, "p1", 0, "t-Ann") == "held"
    assert presence.standing(room, "p1", None, "eve") == "held"
    dropped = presence.drop_processes(room, {"p1"}, T0).room
    assert presence.standing(dropped, "p1", 0, "t-Ann") == "let_go"
    assert presence.standing(dropped, "p1", None, "eve") == "let_go"
    moved = presence.watch(r.come_back(dropped, 0, "p2", "t-Ann").room, "eve", "p2").room
    assert presence.standing(moved, "p1", 0, "t-Ann") == "elsewhere"
    assert presence.standing(moved, "p1", None, "eve") == "elsewhere"


def test_a_lobby_seat_freed_or_taken_by_someone_else_is_lost() -> None:
    room = r.join(_room(), "Cy", "p1", "t-Cy")[1].room
    freed = presence.drop_processes(room, {"p1"}, T0).room
    assert presence.standing(freed, "p1", 1, "t-Cy") == "lost"
    taken = r.join(freed, "Dan", "p2", "t-Dan")[1].room
    assert presence.standing(taken, "p1", 1, "t-Cy") == "lost"
    assert presence.take_back(taken, "p1", [(1, "t-Cy")]) == r.Transition(taken)


def test_racers_and_spectators_let_go_are_taken_back_as_on_a_resume() -> None:
    room = presence.watch(_racing(("Bob", "p1")), "eve", "p1").room
    dropped = presence.drop_processes(room, {"p1"}, T0).room
    assert dropped.host is None and dropped.spectators == 0
    room, events = presence.take_back(dropped, "p1", [(1, "t-Bob"), (0, "t-Ann"), (None, "eve")])
    assert [(player.away, player.process) for player in room.players] == [(False, "p1")] * 2
    assert room.host == 1 and room.watchers == (Watcher("eve", "p1"),)
    assert events == (
        p.PlayerBack(seat=1),
        p.HostChanged(seat=1),
        p.PlayerBack(seat=0),
        p.SpectatorCount(count=1),
    )
    assert presence.take_back(room, "p1", [(0, "t-Ann"), (None, "eve")]) == r.Transition(room)


def test_what_is_held_elsewhere_is_not_taken_back() -> None:
    room = presence.watch(_racing(("Bob", "p2")), "eve", "p1").room
    dropped = presence.drop_processes(room, {"p1"}, T0).room
    moved = presence.watch(r.come_back(dropped, 0, "p2", "t-Ann").room, "eve", "p2").room
    assert presence.take_back(moved, "p1", [(0, "t-Ann"), (None, "eve")]) == r.Transition(moved)


def test_a_spectator_let_go_stays_let_go_while_the_room_is_full_of_spectators() -> None:
    room = presence.watch(_room(), "eve", "p1").room
    room = presence.drop_processes(room, {"p1"}, T0).room
    for number in range(p.limits.MAX_SPECTATORS):
        room = presence.watch(room, f"t{number}", "p2").room
    assert presence.take_back(room, "p1", [(None, "eve")]) == r.Transition(room)
    assert presence.standing(room, "p1", None, "eve") == "let_go"
