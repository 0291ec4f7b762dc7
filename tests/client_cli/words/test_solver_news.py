"""Hints and the deal's verdict in line mode, against a real server.

Little Milligan deal 2 is won by the server's solver in milliseconds; Little
Billie deal 7 is proven unwinnable as fast.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from client_cli.words.solver_news import NO_LINE, hint_text, verdict_text
from protocol import CreateRoom, DealVerdict, Hint, Settings
from server.clock import ManualClock
from server.solver.jobs import winning_line
from tests.client_cli._driver import Terminal, ready_and_go

pytestmark = pytest.mark.solver_workers

FIRST_MOVE = winning_line("little-milligan", b"deal:2", (), 5.0)[1][0]


@pytest.fixture
async def ada(server_url: str) -> AsyncIterator[Terminal]:
    terminal = Terminal(server_url)
    yield terminal
    await terminal.close()


async def _race(ada: Terminal, clock: ManualClock, variant: str, settings: Settings) -> None:
    ada.start(lambda id_: CreateRoom(id=id_, variant=variant, name="Ada", settings=settings))
    await ada.wait_for("Share the code")
    await ready_and_go(clock, ada)


async def test_hint_in_a_practice_room_names_the_next_move_of_a_winning_line(
    ada: Terminal, clock: ManualClock
) -> None:
    await _race(
        ada, clock, "little-milligan", Settings(countdown_s=1, deal_number=2, practice=True)
    )
    assert f"Hint: {FIRST_MOVE}" in await ada.type("hint", expect="Hint:")


async def test_hint_in_a_ranked_room_is_refused(ada: Terminal, clock: ManualClock) -> None:
    await _race(ada, clock, "little-milligan", Settings(countdown_s=1, deal_number=2))
    said = await ada.type("hint", expect="refused")
    assert "room/not-practice" in said


async def test_the_verdict_follows_the_results(ada: Terminal, clock: ManualClock) -> None:
    await _race(ada, clock, "little-billie", Settings(countdown_s=1, deal_number=7))
    await ada.type("resign", expect="Race 1 results:")
    said = await ada.wait_for("Solver:")
    assert "Solver: this deal cannot be won, whatever the play." in said
    assert ada.session.tracker.room is not None
    assert ada.session.tracker.room.verdict is not None


def test_hint_texts() -> None:
    won = Hint(id=1, version=3, verdict="won", move="t3 t7")
    assert hint_text(won, 3) == "Hint: t3 t7"
    assert hint_text(won, 4) == "Hint: t3 t7 (for your board at move 3, not 4)"
    assert hint_text(Hint(id=1, version=3, verdict="undecided"), 3) == NO_LINE
    unwinnable = hint_text(Hint(id=1, version=3, verdict="unwinnable"), 3)
    assert unwinnable.startswith("No winning line: the solver proved")


def test_verdict_texts() -> None:
    won = DealVerdict(race_no=1, verdict="won", line_moves=96, budget_s=10.0)
    assert verdict_text(won) == "Solver: this deal can be won; it found a line of 96 moves."
    undecided = DealVerdict(race_no=1, verdict="undecided", budget_s=2.5)
    assert verdict_text(undecided) == "Solver: no verdict on this deal within 2.5 s of search."
