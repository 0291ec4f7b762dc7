"""Practice on the full screen: bots seated for the host, keys held until they are in."""

from __future__ import annotations

from pathlib import Path

from client_cli.tui import UNICODE, RaceApp
from protocol import CreateRoom
from server.clock import ManualClock
from tests.client_cli.tui._screen import FAST, run_countdown, wait_for_text, wait_until


async def test_practice_seats_the_bots_before_ready_counts_then_races_to_the_results(
    server_url: str, clock: ManualClock, tmp_path: Path
) -> None:
    settings = FAST.model_copy(update={"max_players": 3})

    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant="little-milligan", name="Ada", settings=settings)

    app = RaceApp(server_url, entry, UNICODE, tmp_path, bots=2, bot_speed=10.0)
    async with app.run_test(size=(80, 24)) as pilot:
        tracker = app.session.tracker
        await wait_until(pilot, lambda: tracker.room is not None, "the room")
        await pilot.press("space")  # before the bots are in: held, not lost
        await run_countdown(pilot, app, clock)
        assert tracker.room is not None
        names = [player.name for player in tracker.room.players]
        assert names[0] == "Ada" and sorted(names[1:]) == [
            "Bot 1",
            "Bot 2",
        ]  # bots seat in any order
        assert app.team.seated.is_set() and app.team.failed == 0
        text = await wait_for_text(pilot, "Bot 2")
        assert "Bot 1" in text and "Ada (you)" in text
        await pilot.press("x", "y")
        text = await wait_for_text(pilot, "Race 1 results")
        for whose in ("your", "Bot 1's", "Bot 2's"):
            assert f"Replayed {whose}" in text
        assert "matches the commit" in text and "WARNING" not in text
        await pilot.press("m")  # a rematch: the bots stay and say ready again

        def bots_ready_for_race_2() -> bool:
            room = tracker.room
            if room is None or room.race_no != 2:
                return False
            bots = [p for p in room.players if p.name.startswith("Bot ")]
            return len(bots) == 2 and all(p.ready and not p.away for p in bots)

        await wait_until(pilot, bots_ready_for_race_2, "the bots to say ready for race 2")
        await pilot.press("space")
        await run_countdown(pilot, app, clock)
        racing = tracker.room
        assert racing is not None and (racing.phase, racing.race_no) == ("racing", 2)
