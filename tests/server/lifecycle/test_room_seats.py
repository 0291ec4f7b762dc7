"""Seats of accounts and bots in the pure lobby: what they carry, what the events say."""

from __future__ import annotations

from protocol import SeatRating, Settings, events
from server.lifecycle import room as r

SECRET = bytes(range(32))


def _room_with_an_account() -> r.Room:
    created = r.create(
        "ABC234",
        "little-forty",
        Settings(),
        "Ada",
        SECRET,
        process="p1",
        token="t0",
        account="a1",
        rating=1980,
        provisional=True,
    )
    assert created.events == (
        events.PlayerJoined(seat=0, name="Ada", account=True, rating=1980, provisional=True),
    )
    return created.room


def test_a_joined_seat_carries_its_account_bot_mark_and_rating() -> None:
    room = _room_with_an_account()
    seat, (room, joined) = r.join(room, "Robo", "p1", "t1", bot=True)
    assert joined == (events.PlayerJoined(seat=1, name="Robo", bot=True),)
    player = room.player(seat)
    assert (player.account, player.bot, player.rating) == ("", True, None)
    host = room.player(0)
    assert (host.account, host.rating, host.provisional) == ("a1", 1980, True)
    snapshot = r.snapshot(room, {})
    assert [(p.account, p.bot, p.rating) for p in snapshot.players] == [
        (True, False, 1980),
        (False, True, None),
    ]


def test_new_settings_give_every_seat_its_accounts_rating_for_the_new_game() -> None:
    room = _room_with_an_account()
    _, (room, _) = r.join(room, "Bob", "p1", "t1", account="a2")
    _, (room, _) = r.join(room, "Guest", "p1", "t2")
    ratings = {"a2": (1620, False)}
    changed = r.set_settings(room, 0, "little-milligan", Settings(), ratings=ratings)
    (event,) = changed.events
    assert isinstance(event, events.SettingsChanged)
    assert event.ratings == (SeatRating(seat=1, rating=1620, provisional=False),)
    shown = [(p.rating, p.provisional) for p in changed.room.players]
    assert shown == [(None, False), (1620, False), (None, False)]


def test_settings_without_ratings_keep_the_seats_as_they_were() -> None:
    room = _room_with_an_account()
    changed = r.set_settings(room, 0, "little-forty", Settings(countdown_s=3))
    assert changed.room.player(0).rating == 1980
    (event,) = changed.events
    assert isinstance(event, events.SettingsChanged)
    assert event.ratings == (SeatRating(seat=0, rating=1980, provisional=True),)


def test_the_rematch_keeps_the_account_of_each_seat() -> None:
    player = _room_with_an_account().player(0)
    again = player.seated_again
    assert (again.account, again.rating, again.provisional) == ("a1", 1980, True)
