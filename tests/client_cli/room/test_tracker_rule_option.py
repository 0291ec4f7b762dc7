"""A watcher's client at the end of a race in a room with a rule option: the
results name the redeal rule, and every log replays under the option."""

from __future__ import annotations

from client_cli.room.tracker import Tracker
from protocol import EventFrame, Joined, RaceStarted, Settings
from tests.client_cli._samples import board, room
from tests.client_cli.words.test_rule_words import BILLIE, UNLIMITED, UNTIL_BLOCKED, over_and_moves


def test_the_results_name_the_rule_and_the_logs_replay_under_it() -> None:
    tracker = Tracker()
    settings = Settings(rule_option=UNLIMITED, deal_number=1)
    snapshot = room(variant=BILLIE, settings=settings)
    tracker.on_message(Joined(id=1, code="K7PQ2M", seat=None, token="k" * 24, room=snapshot, seq=4))
    started = RaceStarted(race_no=1, start_at_ms=1000, ends_at_ms=901000, board=board(BILLIE))
    tracker.on_message(EventFrame(seq=5, event=started))
    over, moves = over_and_moves()
    lines = tracker.on_message(EventFrame(seq=6, event=over))
    assert lines[0].startswith(f"Race 1 results:\n{UNTIL_BLOCKED}\n  1. Ada")
    assert lines[-1] == f"Replayed Ada's {len(moves)} moves: 81 cards home, agrees."
