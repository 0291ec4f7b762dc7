"""Accounts, bots and ratings in the client's copy of a room: joins, new settings,
a rated race's changes, and the rematch that puts them behind."""

from __future__ import annotations

from client_cli.room.tracker import Tracker
from protocol import (
    EventFrame,
    Joined,
    PlayerJoined,
    RaceRated,
    RatingChange,
    Rematch,
    SeatRating,
    Settings,
    SettingsChanged,
)
from protocol.changes import apply_event
from tests.client_cli._samples import player, race_over, result, room


def _marks(snapshot: object) -> list[tuple[str, bool, bool, int | None, bool]]:
    return [
        (p.name, p.account, p.bot, p.rating, p.provisional)
        for p in snapshot.players  # type: ignore[attr-defined]
    ]


def _accounts_lobby() -> object:
    players = (
        player(0, "Ada", account=True, rating=1523),
        player(1, "Bob", account=True, rating=1480, provisional=True),
        player(2, "Cy"),
    )
    return room(players=players, settings=Settings(rated=True))


def test_a_newcomer_brings_its_account_bot_mark_and_rating() -> None:
    lobby = apply_event(
        room(), PlayerJoined(seat=2, name="Cy", account=True, rating=1611, provisional=True)
    )
    lobby = apply_event(lobby, PlayerJoined(seat=3, name="Bot 1", bot=True))
    assert _marks(lobby)[2:] == [
        ("Cy", True, False, 1611, True),
        ("Bot 1", False, True, None, False),
    ]


def test_new_settings_give_every_seat_its_rating_for_the_new_game() -> None:
    lobby = _accounts_lobby()
    changed = apply_event(
        lobby,  # type: ignore[arg-type]
        SettingsChanged(
            variant="little-billie",
            settings=Settings(rated=True),
            ratings=(SeatRating(seat=1, rating=1502, provisional=False),),
        ),
    )
    assert _marks(changed) == [
        ("Ada", True, False, None, False),
        ("Bob", True, False, 1502, False),
        ("Cy", False, False, None, False),
    ]


def test_a_rated_race_moves_each_rating_once_and_the_rematch_puts_it_behind() -> None:
    finished = apply_event(_accounts_lobby(), race_over(()))  # type: ignore[arg-type]
    changes = (
        RatingChange(seat=0, name="Ada", before=1523, after=1537, provisional=False),
        RatingChange(seat=1, name="Bob", before=1480, after=1471, provisional=True),
    )
    rated = apply_event(finished, RaceRated(race_no=1, changes=changes))
    assert rated.rating_changes == changes
    assert [(p.rating, p.provisional) for p in rated.players] == [
        (1537, False),
        (1471, True),
        (None, False),
    ]
    lobby = apply_event(rated, Rematch(race_no=2))
    assert lobby.rating_changes is None and lobby.players[0].rating == 1537


def test_the_changes_of_an_earlier_race_move_ratings_but_are_not_this_races() -> None:
    racing = room(phase="racing", race_no=3, players=(player(0, "Ada", account=True),))
    change = RatingChange(seat=0, name="Ada", before=1500, after=1510, provisional=True)
    late = apply_event(racing, RaceRated(race_no=2, changes=(change,)))
    assert late.rating_changes is None and late.players[0].rating == 1510


def test_the_tracker_says_how_each_rating_moved() -> None:
    tracker = Tracker()
    lobby = _accounts_lobby()
    over = race_over((result(1, 0, "Ada"), result(2, 1, "Bob"), result(3, 2, "Cy")))
    tracker.on_message(Joined(id=1, code="K7PQ2M", seat=0, token="t" * 24, room=lobby, seq=4))  # type: ignore[arg-type]
    tracker.on_message(EventFrame(seq=5, event=over))
    changes = (
        RatingChange(seat=0, name="Ada", before=1523, after=1537, provisional=False),
        RatingChange(seat=1, name="Bob", before=1480, after=1471, provisional=True),
    )
    lines = tracker.on_message(EventFrame(seq=6, event=RaceRated(race_no=1, changes=changes)))
    assert lines == ["Ratings after race 1: Ada +14 (1537), Bob -9 (1471, provisional)."]
    assert tracker.room is not None and tracker.room.rating_changes == changes
