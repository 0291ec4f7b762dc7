"""News lines for room events and refused requests."""

from __future__ import annotations

import pytest

from client_cli.words import describe as describe_module
from client_cli.words.describe import describe, describe_error
from protocol import (
    BoardShown,
    Countdown,
    Error,
    ErrorCode,
    GhostProgress,
    HostChanged,
    IdleWarning,
    MakeMove,
    PlayerFinished,
    PlayerJoined,
    PlayerLeft,
    ProgressMade,
    RaceStarted,
    ReadyChanged,
    Rematch,
    RoomEvent,
    Settings,
    SettingsChanged,
    Sync,
)
from tests.client_cli._samples import board, player, room, room_event_types


@pytest.mark.parametrize(
    ("event", "you", "text"),
    [
        (PlayerJoined(seat=2, name="Cy"), 0, "Cy joined as #3 (guest)."),
        (PlayerJoined(seat=2, name="Cy", account=True), 0, "Cy joined as #3 (unrated)."),
        (
            PlayerJoined(seat=2, name="Cy", account=True, rating=1611, provisional=True),
            0,
            "Cy joined as #3 (1611 provisional).",
        ),
        (PlayerJoined(seat=3, name="Bot 1", bot=True), 0, "Bot 1 joined as #4 (bot)."),
        (PlayerLeft(seat=1, away=False), 0, "Bob left."),
        (PlayerLeft(seat=1, away=True), 0, "Bob is away (seat kept)."),
        (HostChanged(seat=1), 1, "You are the host now."),
        (HostChanged(seat=None), 1, "No host until a player comes back."),
        (ReadyChanged(seat=1, ready=True), 0, "Bob is ready."),
        (ReadyChanged(seat=0, ready=False), 0, "You are not ready."),
        (
            ProgressMade(seat=1, progress=1, moves=1, outcome="playing"),
            0,
            "Bob has 1 of 104 cards home after 1 move.",
        ),
        (
            ProgressMade(seat=1, progress=8, moves=20, outcome="playing"),
            None,
            "Bob has 8 of 104 cards home after 20 moves.",
        ),
        (
            PlayerFinished(seat=1, outcome="won", at_ms=9, elapsed_ms=83456),
            0,
            "Bob won in 1:23.456.",
        ),
        (
            PlayerFinished(seat=0, outcome="timeout", at_ms=9, elapsed_ms=900000),
            0,
            "You ran out of time after 15:00.000.",
        ),
        (
            PlayerFinished(seat=1, outcome="timeout", at_ms=9, elapsed_ms=7000, ended_by=0),
            None,
            "Bob was stopped after 0:07.000: the host, Ada, ended the race early.",
        ),
        (
            PlayerFinished(seat=1, outcome="timeout", at_ms=9, elapsed_ms=7000, ended_by=0),
            1,
            "You were stopped after 0:07.000: the host, Ada, ended the race early.",
        ),
        (
            PlayerFinished(seat=0, outcome="timeout", at_ms=9, elapsed_ms=7000, ended_by=0),
            0,
            "You were stopped after 0:07.000: you ended the race early.",
        ),
        (
            IdleWarning(seat=0, timeout_at_ms=9),
            0,
            "You have been idle too long: move now or your race ends (timeout).",
        ),
        (
            IdleWarning(seat=1, timeout_at_ms=9),
            None,
            "Bob has been idle too long and times out unless they move.",
        ),
        (
            GhostProgress(
                race_no=1,
                ghost=0,
                name="Ann",
                guest=True,
                progress=0,
                moves=0,
                outcome="playing",
                at_ms=9,
            ),
            0,
            "Ghost Ann (guest) races along.",
        ),
        (
            GhostProgress(
                race_no=1,
                ghost=1,
                name="Bob",
                guest=False,
                progress=3,
                moves=1,
                outcome="playing",
                at_ms=9,
            ),
            0,
            "Ghost Bob has 3 of 104 cards home after 1 move.",
        ),
        (
            GhostProgress(
                race_no=1,
                ghost=1,
                name="Bob",
                guest=False,
                progress=40,
                moves=90,
                outcome="won",
                at_ms=9,
            ),
            None,
            "Ghost Bob won with 40 cards home.",
        ),
        (Rematch(race_no=2), 0, "Rematch: back to the lobby for race 2. Type ready when you are."),
        (Rematch(race_no=2), None, "Rematch: back to the lobby for race 2."),
    ],
)
def test_event_lines(event: RoomEvent, you: int | None, text: str) -> None:
    assert describe(event, room(), you) == text


def test_a_timeout_before_the_time_limit_says_whether_it_was_for_idling() -> None:
    warned = room(players=(player(0, "Ada"), player(1, "Bob", idle_timeout_at_ms=70_000)))
    idled = PlayerFinished(seat=1, outcome="timeout", at_ms=70_000, elapsed_ms=60_000)
    assert describe(idled, warned, 0) == "Bob timed out for idling after 1:00.000."
    ended = PlayerFinished(seat=0, outcome="timeout", at_ms=70_000, elapsed_ms=60_000)
    assert describe(ended, warned, 0) == "You timed out after 1:00.000."


def test_countdown_and_start_give_seconds_and_the_commit() -> None:
    countdown = Countdown(race_no=1, starts_in_ms=2500, start_at_ms=9, seed_commit="ab" * 32)
    assert describe(countdown, room(), 0) == (
        f"Everyone is ready: race 1 starts in 3 s. Seed commit {'ab' * 32}."
    )
    started = RaceStarted(race_no=1, start_at_ms=0, ends_at_ms=900000, board=board("little-forty"))
    assert describe(started, room(), 0) == "Race 1: GO! Time limit 15:00."


def test_own_progress_and_boards_make_no_line() -> None:
    assert describe(ProgressMade(seat=0, progress=1, moves=1, outcome="playing"), room(), 0) is None
    shown = BoardShown(seat=1, board=board("little-forty"), version=1, at_ms=0)
    assert describe(shown, room(), None) is None


def test_refusals_name_the_request_and_the_reason() -> None:
    move = MakeMove(id=4, move="w t3", move_id="m1", expected_version=0)
    illegal = Error(id=4, code=ErrorCode.MOVE_ILLEGAL, message="Jc does not go on 4s")
    assert (
        describe_error(move, illegal)
        == "The move w t3 was refused (move/illegal): Jc does not go on 4s."
    )
    busy = Error(id=5, code=ErrorCode.SERVER_BUSY)
    assert describe_error(Sync(id=5), busy) == "Your sync request was refused (server/busy)."


def test_a_move_that_changes_nothing_says_which_count_to_give() -> None:
    move = MakeMove(id=6, move="t1 t10", move_id="m2", expected_version=3)
    hint = (
        "moving all 4 cards of pile 1 onto empty pile 10 changes nothing;"
        " to move part of it give a count, e.g. t1:3 t10"
    )
    pointless = Error(id=6, code=ErrorCode.MOVE_NO_EFFECT, message=hint, version=3)
    assert describe_error(move, pointless) == (
        f"The move t1 t10 was refused (move/no-effect): {hint}."
    )


def test_a_winnable_deal_is_named_and_its_empty_pool_says_the_cause_first() -> None:
    changed = SettingsChanged(variant="little-forty", settings=Settings(winnable_only=True))
    assert describe(changed, room(), 0) == (
        "Settings changed: Little Forty, 4 seats, 15:00 limit, winnable deal."
        " Everyone must be ready again."
    )
    rated = SettingsChanged(
        variant="little-forty", settings=Settings(winnable_only=True, rated=True)
    )
    assert "winnable deal, rated. Everyone" in (describe(rated, room(), 0) or "")
    empty = Error(id=3, code=ErrorCode.ROOM_NO_WINNABLE_DEAL, message="no winnable deal is left")
    assert describe_error(Sync(id=3), empty) == (
        "No winnable deal is left (room/no-winnable-deal)."
    )


def test_every_room_event_type_has_its_news_and_no_other_type_does() -> None:
    assert set(describe_module._TEXTS) == room_event_types()
