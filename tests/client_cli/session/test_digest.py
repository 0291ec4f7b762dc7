"""Opponent progress: one line per player every few seconds, the latest one."""

from __future__ import annotations

from client_cli.room.tracker import Tracker
from client_cli.session.digest import Digest
from protocol import EventFrame, PlayerFinished, ProgressMade, RoomEvent
from tests.client_cli._samples import room


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_of_moves_gives_one_line_per_player_and_interval() -> None:
    clock = _Clock()
    digest = Digest(every_s=5, clock=clock)
    pending = {1: "Bob has 1 of 104 cards home after 1 move."}
    assert digest.due(pending) == ["Bob has 1 of 104 cards home after 1 move."]
    pending[1] = "Bob has 1 of 104 cards home after 2 moves."
    pending[1] = "Bob has 2 of 104 cards home after 3 moves."
    pending[2] = "Cy has 0 of 104 cards home after 1 move."
    assert digest.due(pending) == ["Cy has 0 of 104 cards home after 1 move."]
    clock.now += 4.9
    assert digest.due(pending) == []
    clock.now += 0.1
    assert digest.due(pending) == ["Bob has 2 of 104 cards home after 3 moves."]
    assert pending == {}


def test_the_tracker_holds_progress_back_but_shows_finishes_at_once() -> None:
    tracker = Tracker()
    tracker.room, tracker.seat, tracker.recent = room(phase="racing"), 0, None
    for seq, moves in ((1, 1), (2, 2), (3, 3)):
        assert (
            tracker.on_message(
                _frame(seq, ProgressMade(seat=1, progress=0, moves=moves, outcome="playing"))
            )
            == []
        )
    assert tracker.progress_news == {1: "Bob has 0 of 104 cards home after 3 moves."}
    assert (
        tracker.on_message(_frame(4, ProgressMade(seat=0, progress=1, moves=1, outcome="playing")))
        == []
    )
    assert tracker.progress_news == {1: "Bob has 0 of 104 cards home after 3 moves."}
    finished = PlayerFinished(seat=1, outcome="resigned", at_ms=5, elapsed_ms=4000)
    assert tracker.on_message(_frame(5, finished)) == ["Bob resigned after 0:04.000."]
    assert tracker.progress_news == {}


def _frame(seq: int, event: RoomEvent) -> EventFrame:
    return EventFrame(seq=seq, event=event)
