"""The start of a race: a deal with no useful move ends every player's race at once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import engine
from protocol import CreateRoom, JoinRoom, Ready, Settings
from tests.server._client import Client, count_down

STUCK_DEAL = 92
"""Double Canfield 40's public deal 92: nothing but drawing, and no drawn card plays."""


def test_the_deal_is_stuck_from_the_start() -> None:
    state = engine.new_game("double-canfield-40", b"deal:%d" % STUCK_DEAL)
    assert engine.outcome(state) is engine.Outcome.STUCK


async def test_a_stuck_deal_ends_the_race_at_its_start(
    connect: Callable[[], Awaitable[Client]],
) -> None:
    host, guest = await connect(), await connect()
    settings = Settings(countdown_s=1, deal_number=STUCK_DEAL)
    joined = await host.call(
        CreateRoom, variant="double-canfield-40", name="Ada", settings=settings
    )
    await guest.call(JoinRoom, code=joined.code, name="Bob")
    await host.call(Ready, ready=True)
    await guest.call(Ready, ready=True)
    started = await count_down(guest)
    over = await guest.wait_event("race_over")
    finished = guest.events("player_finished")
    assert sorted(event.seat for event in finished) == [0, 1]
    assert {event.outcome for event in finished} == {"stuck"}
    assert {event.at_ms for event in finished} == {started.start_at_ms}
    assert [result.outcome for result in over.ranking] == ["stuck", "stuck"]
    assert all(result.moves == 0 for result in over.ranking)
