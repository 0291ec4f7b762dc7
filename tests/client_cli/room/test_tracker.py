"""The client's knowledge of its room and game, driven by plain server messages."""

from __future__ import annotations

import hashlib

from client_cli.room.tracker import Tracker
from client_cli.room.visible import visible_moves
from client_cli.words.render import render
from protocol import (
    BoardShown,
    EventFrame,
    GoingAway,
    Joined,
    MoveOk,
    PlayerJoined,
    ProgressMade,
    RaceStarted,
    ReadyChanged,
    Rematch,
    Resumed,
    RoomEvent,
    Snapshot,
)
from tests.client_cli._samples import board, log, player, race_over, result, room

TOKEN = "k" * 24
START = board("little-forty")


def _joined(seat: int | None = 1, **fields: object) -> Joined:
    return Joined(id=1, code="K7PQ2M", seat=seat, token=TOKEN, room=room(**fields), seq=4)


def _event(seq: int, event: RoomEvent) -> EventFrame:
    return EventFrame(seq=seq, event=event)


def _racing(seat: int | None = 1) -> Tracker:
    tracker = Tracker()
    tracker.on_message(_joined(seat))
    started = RaceStarted(race_no=1, start_at_ms=1000, ends_at_ms=901000, board=START)
    tracker.on_message(_event(5, started))
    return tracker


def test_joining_shows_the_room_and_the_code_to_share() -> None:
    tracker = Tracker()
    lines = tracker.on_message(_joined())
    assert lines[0].startswith("Room K7PQ2M - Little Forty - race 1 - lobby")
    assert "#2 Bob  guest        not ready  (you)" in lines[0]
    assert lines[1] == "Share the code K7PQ2M: solrace join K7PQ2M --name NAME"
    assert (tracker.code, tracker.token, tracker.seat, tracker.last_seq) == ("K7PQ2M", TOKEN, 1, 4)


def test_events_are_applied_once_in_seq_order() -> None:
    tracker = Tracker()
    tracker.on_message(_joined())
    assert tracker.on_message(_event(5, ReadyChanged(seat=1, ready=True))) == ["You are ready."]
    assert tracker.on_message(_event(5, ReadyChanged(seat=1, ready=True))) == []
    assert tracker.on_message(_event(3, PlayerJoined(seat=2, name="Cy"))) == []
    assert tracker.room is not None and len(tracker.room.players) == 2
    assert tracker.last_seq == 5


def test_the_start_gives_the_player_a_board_at_version_zero() -> None:
    tracker = _racing()
    assert (tracker.board, tracker.version) == (START, 0)
    assert tracker.ends_at_ms() == 901000 and tracker.countdown_target_ms() is None
    assert tracker.board_text(now_ms=841000).endswith("Time left 1:00")
    moved = board("little-forty", moves=("draw",))
    ok = MoveOk(
        id=2, move_id="m", version=1, board=moved, at_ms=2000, progress=0, outcome="playing"
    )
    assert tracker.on_message(ok)[0].startswith("Little Forty: 0/104 cards home")
    assert (tracker.board, tracker.version) == (moved, 1)
    assert tracker.moves_text().startswith(f"{len(visible_moves(moved))} moves: ")


def test_a_snapshot_replaces_the_room_and_keeps_newer_events() -> None:
    tracker = _racing()
    tracker.expect_snapshot()
    tracker.on_message(_event(6, ProgressMade(seat=0, progress=2, moves=5, outcome="playing")))
    tracker.on_message(_event(8, ProgressMade(seat=0, progress=3, moves=6, outcome="playing")))
    fresh = room(phase="racing", start_at_ms=1000)
    snapshot = Snapshot(id=9, code="K7PQ2M", seat=1, room=fresh, board=START, version=4, seq=7)
    lines = tracker.on_message(snapshot)
    assert lines[0].startswith("Room K7PQ2M") and lines[1].startswith("Little Forty")
    assert tracker.room is not None and tracker.room.players[0].moves == 6
    assert (tracker.version, tracker.last_seq, tracker.recent) == (4, 8, None)


def test_a_warning_that_still_stands_is_told_on_arrival() -> None:
    warned = (player(0, "Ada", idle_timeout_at_ms=61_000), player(1, "Bob"))
    tracker = Tracker()
    lines = tracker.on_message(_joined(None, phase="racing", start_at_ms=1000, players=warned))
    assert lines[-1] == "Ada has been idle too long and times out unless they move."
    you = (player(0, "Ada"), player(1, "Bob", idle_timeout_at_ms=61_000))
    snapshot = Snapshot(
        id=9,
        code="K7PQ2M",
        seat=1,
        room=room(phase="racing", start_at_ms=1000, players=you),
        board=START,
        version=4,
        seq=7,
    )
    lines = _racing().on_message(snapshot)
    assert lines[-1] == "You have been idle too long: move now or your race ends (timeout)."
    tracker.on_message(_event(5, ProgressMade(seat=0, progress=2, moves=5, outcome="playing")))
    assert tracker.room is not None and tracker.room.players[0].idle_timeout_at_ms is None


def test_a_fresh_resume_learns_the_room_from_the_snapshot() -> None:
    tracker = Tracker()
    resumed = Resumed(id=1, code="K7PQ2M", seat=1, board=START, version=2, seq=9)
    assert tracker.on_message(resumed) == ["Back in room K7PQ2M.", f"Your board:\n{render(START)}"]
    assert tracker.on_message(_event(10, ReadyChanged(seat=0, ready=False))) == []
    snapshot = Snapshot(id=2, code="K7PQ2M", seat=1, room=room(), board=None, version=None, seq=9)
    tracker.on_message(snapshot)
    assert tracker.room is not None and not tracker.room.players[0].ready
    assert tracker.last_seq == 10


def test_spectators_keep_each_players_latest_board() -> None:
    tracker = _racing(seat=None)
    later = board("little-forty", moves=("draw", "draw"))
    earlier = board("little-forty", moves=("draw",))
    assert tracker.on_message(_event(6, BoardShown(seat=0, board=later, version=2, at_ms=1))) == []
    tracker.on_message(_event(6, BoardShown(seat=0, board=earlier, version=1, at_ms=1)))
    shown = tracker.board_text(now_ms=0)
    assert shown.startswith("Ada (#1), move 2:\nLittle Forty: 0/104 cards home")
    assert "Bob (#2), move 0:" in shown
    assert tracker.moves_text() == "Spectators have no moves."
    tracker.on_message(_event(7, Rematch(race_no=2)))
    assert tracker.board_text(now_ms=0) == "No boards yet."


def test_the_end_shows_the_ranking_and_checks_the_seed() -> None:
    tracker = _racing()
    seed = b"deal:1"
    ranking = (result(1, 1, "Bob", log=log()), result(2, 0, "Ada", log=log()))
    over = race_over(ranking, seed, seed_commit=hashlib.sha256(seed).hexdigest())
    lines = tracker.on_message(_event(6, over))
    assert lines[0].startswith("Race 1 results:\n  1. Bob")
    assert "matches the commit" in lines[1]
    assert lines[2:] == [
        "Replayed your 0 moves: 0 cards home, agrees.",
        "Replayed Ada's 0 moves: 0 cards home, agrees.",
    ]


def test_before_a_race_there_is_no_board() -> None:
    tracker = Tracker()
    assert tracker.room_text() == "Not in a room yet."
    tracker.on_message(_joined())
    assert tracker.board_text(now_ms=0) == "No board yet: the race has not started."
    assert tracker.moves_text() == "No board yet: the race has not started."
    notice = GoingAway(reconnect_in_ms=10, message="restart")
    assert tracker.on_message(notice) == ["The server is going away (restart)."]
