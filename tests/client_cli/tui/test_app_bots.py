"""Practice on the full screen: bots seated for the host, keys held until they are in,
brought back when the host resumes."""

from __future__ import annotations

from pathlib import Path

from client_cli.session import saved_seats
from client_cli.tui import UNICODE, RaceApp
from protocol import CreateRoom, PlayerInfo, RoomSnapshot
from server.clock import ManualClock
from tests.client_cli.tui._screen import (
    FAST,
    run_countdown,
    start_race,
    wait_for_text,
    wait_until,
)


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
            "Bot 1 (casual)",
            "Bot 2 (good)",
        ]  # bots seat in any order
        assert app.team.seated.is_set() and app.team.failed == 0
        text = await wait_for_text(pilot, "Bot 2")
        assert "Bot 1" in text and "Ada (you)" in text
        await pilot.press("x", "y")
        text = await wait_for_text(pilot, "Race 1 results")
        for whose in ("your", "Bot 1 (casual)'s", "Bot 2 (good)'s"):
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


def _practice(server_url: str, state: Path, bot_speed: float) -> RaceApp:
    settings = FAST.model_copy(update={"max_players": 3, "practice": True})

    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant="little-milligan", name="Ada", settings=settings)

    return RaceApp(server_url, entry, UNICODE, state, bots=2, bot_speed=bot_speed)


async def _race_then_quit(app: RaceApp, clock: ManualClock) -> dict[str, PlayerInfo]:
    """Seat the bots, race, leave with Ctrl+Q; the bots as the player last saw them."""
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, app.team.seated.is_set, "the bots")
        await start_race(pilot, app, clock)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: app.return_code is not None, "the player to leave")
    code = app.session.tracker.code
    assert (
        app.notes[-1]
        == f"Your seat and your bots' are kept until the race is over: solrace resume {code}"
    )
    assert app.session.tracker.room is not None
    return _bots(app.session.tracker.room)


def _bots(room: RoomSnapshot | None) -> dict[str, PlayerInfo]:
    players = () if room is None else room.players
    return {player.name: player for player in players if player.name.startswith("Bot ")}


def _resumed(app: RaceApp, state: Path) -> RaceApp:
    [saved] = saved_seats.load_all(state)
    assert len(saved.bots) == 2 and saved.name == "Ada" and saved.practice
    assert saved.ends_at is not None  # the race's end by this machine's clock
    assert abs(saved.ends_at - saved.saved_at - FAST.time_limit_s) < 5
    again = RaceApp(app.session.server, app.entry, UNICODE, state)
    again.resume(saved)
    return again


async def test_the_bots_come_back_and_play_on_when_the_player_resumes(
    server_url: str, clock: ManualClock, tmp_path: Path
) -> None:
    app = _practice(server_url, tmp_path, bot_speed=2.0)
    before = await _race_then_quit(app, clock)
    again = _resumed(app, tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        tracker = again.session.tracker

        def played_on() -> bool:
            bots = _bots(tracker.room)
            if len(bots) != 2 or any(bot.away for bot in bots.values()):
                return False
            return all(
                bot.outcome != "playing" or bot.moves > before[name].moves
                for name, bot in bots.items()
            )

        await wait_until(pilot, played_on, "both bots back, each moving or done")
        await wait_for_text(pilot, "Both bots are back.")
        assert tracker.room is not None and tracker.room.phase == "racing"


async def test_bots_brought_back_after_the_race_ended_stay_for_the_rematch(
    server_url: str, clock: ManualClock, tmp_path: Path
) -> None:
    app = _practice(server_url, tmp_path, bot_speed=10.0)
    await _race_then_quit(app, clock)
    clock.advance(FAST.time_limit_s * 1000)
    again = _resumed(app, tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        tracker = again.session.tracker
        await wait_for_text(pilot, "Race 1 results")
        await pilot.press("m")

        def bots_ready_for_race_2() -> bool:
            room = tracker.room
            bots = _bots(room).values()
            if room is None or room.race_no != 2 or len(bots) != 2:
                return False
            return all(bot.ready and not bot.away for bot in bots)

        await wait_until(pilot, bots_ready_for_race_2, "the bots to say ready for race 2")
        await pilot.press("space")
        await run_countdown(pilot, again, clock)
