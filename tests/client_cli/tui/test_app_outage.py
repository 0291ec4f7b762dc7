"""The race screen while its server is down: the state on screen, a queued and a refused move."""

from __future__ import annotations

from pathlib import Path

from client_cli.tui import UNICODE, RaceApp
from protocol import CreateRoom
from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.store import Store
from tests.client_cli.tui._boards import deal_one
from tests.client_cli.tui._screen import FAST, screen_text, start_race, wait_for_text, wait_until
from tests.conftest import OpenStore


async def test_a_server_outage_shows_on_screen_queues_one_move_and_refuses_the_next(
    store: Store, open_store: OpenStore, clock: ManualClock, tmp_path: Path
) -> None:
    servers = [RaceServer(Config(port=0), store, clock)]
    await servers[0].start()
    port = servers[0].port

    def entry(id_: int) -> CreateRoom:
        return CreateRoom(id=id_, variant="little-forty", name="Ada", settings=FAST)

    app = RaceApp(f"ws://127.0.0.1:{port}", entry, UNICODE, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await start_race(pilot, app, clock)
            await servers[0].stop()
            text = await wait_for_text(pilot, "Reconnecting...")
            assert text.splitlines()[0].startswith("solrace ")  # in the top bar
            await pilot.press("d")
            text = await wait_for_text(pilot, "Not connected: move draw will be sent once")
            await pilot.press("tab", *"t1 t2", "enter")
            await wait_for_text(pilot, "a move is already waiting")
            assert "type t1 t2 again once your board is back" in app.notes[-1]
            servers.append(RaceServer(Config(port=port), await open_store(), clock))
            await servers[-1].start()
            await wait_until(pilot, lambda: app.session.tracker.version == 1, "the queued draw")
            await wait_until(pilot, lambda: "Reconnecting" not in screen_text(app), "the end")
            assert app.session.tracker.board == deal_one("little-forty", "draw")
    finally:
        for server in servers:
            await server.stop()
