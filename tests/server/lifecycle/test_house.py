"""House bot seats as pure transitions: seated by the host, limited, never host, kept
when their socket closes, freed by the host or with the last person, taken over."""

from __future__ import annotations

import pytest

import protocol as p
from protocol import ErrorCode
from server.lifecycle import house, presence
from server.lifecycle import room as r
from server.lifecycle.room import RoomError

SECRET = b"house bot secret".ljust(32)
T0 = 1_000_000


def _room() -> r.Room:
    return r.create(
        "ABC234", "little-forty", p.Settings(), "Ann", SECRET, process="p1", token="t-Ann"
    ).room


def _with_bot(room: r.Room, level: p.BotLevel = "good", per_room: int = 4) -> r.Room:
    name = house.bot_name(room, level)
    _, (room, _) = house.seat(
        room, 0, name=name, level=level, process="p1", token=f"t-{name}", per_room=per_room
    )
    return room


def test_a_house_bot_is_named_by_its_level_and_never_twice_the_same() -> None:
    room = _with_bot(_with_bot(_room()))
    assert [(pl.name, pl.bot, pl.house, pl.level) for pl in room.players[1:]] == [
        ("Good bot", True, True, "good"),
        ("Good bot 2", True, True, "good"),
    ]
    assert house.bot_name(room, "strong") == "Strong bot"


def test_only_the_host_seats_house_bots_in_the_lobby_up_to_the_limit() -> None:
    room = _with_bot(_room(), per_room=1)
    with pytest.raises(RoomError) as refused:
        _with_bot(room, per_room=1)
    assert refused.value.code == ErrorCode.ROOM_BOT_LIMIT
    room, _ = r.join(_room(), "Bob", "p1", "t-Bob")[1]
    with pytest.raises(RoomError) as refused:
        house.seat(room, 1, name="X", level="good", process="p1", token="t", per_room=4)
    assert refused.value.code == ErrorCode.ROOM_NOT_HOST


def test_the_host_frees_a_house_bot_but_no_other_seat() -> None:
    room, _ = r.join(_with_bot(_room()), "Bob", "p1", "t-Bob")[1]
    with pytest.raises(RoomError) as refused:
        house.remove(room, 0, 2, T0)
    assert refused.value.code == ErrorCode.ROOM_NOT_A_BOT
    room, events = house.remove(room, 0, 1, T0)
    assert [pl.name for pl in room.players] == ["Ann", "Bob"]
    assert events == (p.PlayerLeft(seat=1, away=False),)


def test_a_house_bot_keeps_its_seat_when_its_socket_closes() -> None:
    room = _with_bot(_room())
    assert presence.leave(room, 1, "p1", T0).room == room


def test_the_host_role_passes_to_a_person_never_to_a_house_bot() -> None:
    room, _ = r.join(_with_bot(_room()), "Bob", "p1", "t-Bob")[1]
    room, events = presence.leave(room, 0, "p1", T0)
    assert room.host == 2 and p.HostChanged(seat=2) in events


def test_the_last_person_leaving_a_lobby_takes_the_house_bots_along() -> None:
    room, events = presence.leave(_with_bot(_with_bot(_room())), 0, "p1", T0)
    assert room.players == () and room.host is None
    assert [event.seat for event in events if isinstance(event, p.PlayerLeft)] == [0, 1, 2]


def test_house_bots_never_count_down_alone() -> None:
    room, _ = r.join(_with_bot(_room()), "Bob", "p1", "t-Bob")[1]
    room, _ = r.set_ready(room, 1, True, T0)
    room, _ = r.set_ready(room, 0, True, T0)
    assert room.phase == "lobby"
    room, _ = r.set_ready(room, 2, True, T0)
    assert room.phase == "countdown"


def test_the_house_bots_of_a_process_gone_are_taken_over_under_new_tokens() -> None:
    room = _with_bot(_room())
    room, _ = r.join(room, "Bob", "p2", "t-Bob")[1]
    taken = house.adopt(room, {"p1"}, "p3", {1: "new"})
    bot = taken.player(1)
    assert (bot.process, bot.token) == ("p3", "new")
    assert taken.player(0) == room.player(0) and taken.player(2) == room.player(2)
    dropped, _ = presence.drop_processes(taken, {"p1"}, T0)
    assert [pl.name for pl in dropped.players] == ["Good bot", "Bob"]


def test_a_house_bot_keeps_its_level_and_mark_in_storage_and_the_next_race() -> None:
    room = _with_bot(_room(), level="strong")
    assert r.from_bytes(r.to_bytes(room)) == room
    bot = room.player(1).seated_again
    assert (bot.level, bot.house, bot.bot) == ("strong", True, True)
