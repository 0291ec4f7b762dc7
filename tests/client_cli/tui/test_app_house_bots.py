"""The lobby's bot keys on the full screen, against a server with a real bot process:
``b`` and a level's number seat a house bot, ``B`` frees it again."""

from __future__ import annotations

from pathlib import Path

from client_cli.tui import UNICODE, RaceApp
from protocol import CreateRoom
from server.clock import ManualClock
from tests.client_cli.tui._screen import FAST, wait_for_text, wait_until
from tests.conftest import OpenStore
from tests.server.house._house import house_server


async def test_the_host_adds_a_house_bot_of_a_level_and_removes_it(
    open_store: OpenStore, clock: ManualClock, tmp_path: Path
) -> None:
    server = await house_server(await open_store(), clock)

    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant="little-forty", name="Ada", settings=FAST)

    app = RaceApp(f"ws://127.0.0.1:{server.port}", entry, UNICODE, tmp_path)
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            tracker = app.session.tracker
            await wait_until(pilot, lambda: tracker.room is not None, "the room")
            await wait_for_text(pilot, "b/B bot")
            await pilot.press("b")
            await wait_for_text(pilot, "Bot level? 1 beginner")
            await pilot.press("4")
            text = await wait_for_text(pilot, "Strong bot")
            assert "#2" in text

            def bot_ready() -> bool:
                room = tracker.room
                return room is not None and len(room.players) == 2 and room.players[1].ready

            await wait_until(pilot, bot_ready, "the house bot to say ready")
            bot = tracker.room.players[1] if tracker.room else None
            assert bot is not None and (bot.house, bot.level) == (True, "strong")
            await pilot.press("b", "x")
            await wait_for_text(pilot, "No bot added.")
            await pilot.press("B")
            await wait_until(
                pilot,
                lambda: tracker.room is not None and len(tracker.room.players) == 1,
                "the bot's seat to be freed",
            )
    finally:
        await server.stop()
