"""Accounts, guests and bots in a room's text, and a rated race's changes beside its ranking."""

from __future__ import annotations

from client_cli.words.ratings import identity, rated_news, rating_due, signed
from client_cli.words.render import render_ranking, render_room
from protocol import RatingChange, Settings
from tests.client_cli._samples import player, race_over, result, room
from tests.client_cli._snapshots import assert_snapshot

ADA = player(0, "Ada", account=True, rating=1523, ready=True)
BOB = player(1, "Bob", account=True, rating=1480, provisional=True)
CHANGES = (
    RatingChange(seat=1, name="Bob", before=1480, after=1494, provisional=True),
    RatingChange(seat=0, name="Ada", before=1523, after=1514, provisional=False),
)


def test_each_seat_says_whose_it_is() -> None:
    assert identity(ADA) == "1523"
    assert identity(BOB) == "1480 provisional"
    assert identity(player(2, "Cy", account=True)) == "unrated"
    assert identity(player(2, "Cy")) == "guest"
    assert identity(player(3, "Bot 1", bot=True, account=True)) == "bot"


def test_a_rated_lobby_shows_every_rating_guest_and_bot() -> None:
    players = (ADA, BOB, player(2, "Charlotte"), player(3, "Bot 1", bot=True, ready=True))
    lobby = room(players=players, settings=Settings(rated=True, winnable_only=True))
    shown = render_room(lobby, you=1)
    assert "| rated" in shown
    assert_snapshot("room_lobby_rated", shown)


def test_a_rated_ranking_shows_each_accounts_change_and_none_for_the_others() -> None:
    ranking = (
        result(1, 1, "Bob", outcome="won", progress=104, moves=230, elapsed_ms=83456),
        result(
            2, 0, "Ada", outcome="won", progress=104, moves=1, elapsed_ms=90000,
            decided_by="finish_time",
        ),
        result(3, 2, "Charlotte", progress=12, moves=30, elapsed_ms=31002, decided_by="outcome"),
    )  # fmt: skip
    shown = render_ranking(race_over(ranking), total=104, changes=CHANGES)
    assert_snapshot("ranking_rated", shown)
    assert render_ranking(race_over(ranking), total=104, changes=()) == render_ranking(
        race_over(ranking), total=104
    )


def test_changes_are_signed_and_told_in_one_sentence() -> None:
    assert [signed(change) for change in CHANGES] == ["+14", "-9"]
    same = RatingChange(seat=0, name="Ada", before=1500, after=1500, provisional=True)
    assert signed(same) == "+0"
    assert rated_news(2, CHANGES) == (
        "Ratings after race 2: Bob +14 (1494, provisional), Ada -9 (1514)."
    )


def test_ratings_are_due_after_a_rated_race_of_two_accounts_until_they_come() -> None:
    rated = Settings(rated=True)
    over = room(phase="finished", players=(ADA, BOB), settings=rated)
    assert rating_due(over)
    assert not rating_due(over.model_copy(update={"rating_changes": CHANGES}))
    assert not rating_due(over.model_copy(update={"settings": Settings()}))
    assert not rating_due(room(phase="finished", players=(ADA, player(1, "Bob")), settings=rated))
    assert not rating_due(room(players=(ADA, BOB), settings=rated))
