"""A dead-end notice in line mode, against a real server: printed for the
position it is about, and ``resign`` takes the player out of the race.

Little Milligan deal 4: three deals from the stock bury the only card that
could go home (tests/server/test_dead_end.py pins that), and the server's
check runs once its clock is thirty seconds on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from client_cli.room.dead_end import PLAIN_NOTICE, holds, take
from client_cli.room.tracker import Tracker
from protocol import CreateRoom, DeadEnd, Settings
from server.clock import ManualClock
from tests.client_cli._driver import Terminal, ready_and_go

pytestmark = pytest.mark.solver_workers

AFTER_MS = 30_000
SETTINGS = Settings(countdown_s=1, deal_number=4)


@pytest.fixture
async def ada(server_url: str) -> AsyncIterator[Terminal]:
    terminal = Terminal(server_url)
    terminal.start(
        lambda id_: CreateRoom(id=id_, variant="little-milligan", name="Ada", settings=SETTINGS)
    )
    await terminal.wait_for("Share the code")
    yield terminal
    await terminal.close()


async def test_the_notice_is_printed_and_resign_ends_the_race(
    ada: Terminal, clock: ManualClock
) -> None:
    await ready_and_go(clock, ada)
    for _ in range(3):
        await ada.type("deal", expect="cards home")
    mark = len(ada.output)
    clock.advance(AFTER_MS)
    await ada.wait_for(PLAIN_NOTICE, mark)
    assert holds(ada.session.tracker)
    await ada.type("resign", expect="You resigned after")


async def test_a_notice_about_another_position_is_not_shown(
    ada: Terminal, clock: ManualClock
) -> None:
    await ready_and_go(clock, ada)
    await ada.type("deal", expect="cards home")
    tracker = ada.session.tracker
    assert tracker.version == 1
    assert take(tracker, DeadEnd(version=0, at_ms=clock.now_ms())) == []
    assert not holds(tracker)
    assert take(tracker, DeadEnd(version=1, at_ms=clock.now_ms())) == [PLAIN_NOTICE]
    assert holds(tracker)
    await ada.type("deal", expect="cards home")
    assert not holds(tracker)


def test_a_tracker_outside_a_race_ignores_the_notice() -> None:
    tracker = Tracker()
    assert tracker.on_message(DeadEnd(version=0, at_ms=0)) == []
    assert tracker.dead_end is None
