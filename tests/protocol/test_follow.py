"""Following a room from plain server messages, as every client and bot does."""

from __future__ import annotations

from protocol import (
    DeadEnd,
    EventFrame,
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
from protocol.follow import Follower, dead_end_holds
from tests.client_cli._samples import board, race_over, room

TOKEN = "k" * 24
START = board("little-forty")


def _event(seq: int, event: RoomEvent) -> EventFrame:
    return EventFrame(seq=seq, event=event)


def _racing() -> Follower:
    follower = Follower()
    follower.follow(Joined(id=1, code="K7PQ2M", seat=1, token=TOKEN, room=room(), seq=4))
    started = RaceStarted(race_no=1, start_at_ms=1000, ends_at_ms=901000, board=START)
    follower.follow(_event(5, started))
    return follower


def test_events_are_applied_once_in_seq_order() -> None:
    follower = Follower()
    follower.follow(Joined(id=1, code="K7PQ2M", seat=1, token=TOKEN, room=room(), seq=4))
    follower.follow(_event(5, ReadyChanged(seat=1, ready=True)))
    follower.follow(_event(5, ReadyChanged(seat=1, ready=False)))
    follower.follow(_event(3, PlayerJoined(seat=2, name="Cy")))
    assert follower.room is not None and follower.room.players[1].ready
    assert len(follower.room.players) == 2 and follower.last_seq == 5


def test_the_start_gives_the_board_at_version_zero_and_each_move_the_next() -> None:
    follower = _racing()
    assert (follower.board, follower.version) == (START, 0)
    moved = board("little-forty", moves=("draw",))
    follower.follow(
        MoveOk(id=2, move_id="m", version=1, board=moved, at_ms=2, progress=0, outcome="playing")
    )
    assert (follower.board, follower.version) == (moved, 1)


def test_a_fresh_resume_learns_the_room_from_the_snapshot_and_the_events_after_it() -> None:
    follower = Follower()
    follower.follow(Resumed(id=1, code="K7PQ2M", seat=1, board=START, version=2, seq=9))
    follower.follow(_event(8, ProgressMade(seat=0, progress=1, moves=1, outcome="playing")))
    follower.follow(_event(10, ReadyChanged(seat=0, ready=False)))
    assert follower.room is None and (follower.board, follower.version) == (START, 2)
    racing = room(phase="racing", start_at_ms=1000)
    follower.follow(
        Snapshot(id=2, code="K7PQ2M", seat=1, room=racing, board=START, version=2, seq=9)
    )
    assert follower.room is not None and not follower.room.players[0].ready
    assert follower.room.players[0].moves == 0, "an event older than the snapshot is in it"
    assert (follower.last_seq, follower.recent) == (10, None)


def test_the_results_stay_until_the_rematch_clears_the_board() -> None:
    follower = _racing()
    over = race_over(())
    follower.follow(_event(6, over))
    finished = follower.room
    assert follower.results == over and finished is not None and finished.phase == "finished"
    follower.follow(_event(7, Rematch(race_no=2)))
    lobby = follower.room
    assert (follower.board, follower.version) == (None, None)
    assert lobby is not None and (lobby.phase, lobby.race_no) == ("lobby", 2)


def test_a_dead_end_holds_only_at_the_position_it_was_found_for() -> None:
    follower = _racing()
    follower.follow(DeadEnd(version=3, at_ms=5))
    assert not dead_end_holds(follower)
    follower.follow(DeadEnd(version=0, at_ms=5))
    assert dead_end_holds(follower)
    moved = board("little-forty", moves=("draw",))
    follower.follow(
        MoveOk(id=2, move_id="m", version=1, board=moved, at_ms=6, progress=0, outcome="playing")
    )
    assert not dead_end_holds(follower)
