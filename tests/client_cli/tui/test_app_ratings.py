"""The full screen with accounts, against a real server: a rated lobby's marks, and the
results that take each account's change when ``race_rated`` comes."""

from __future__ import annotations

import re
from pathlib import Path

from client_cli.link.asking import asking
from client_cli.tui import UNICODE, RaceApp
from protocol import AccountCreated, CreateAccount, CreateRoom, JoinRoom, Settings
from server.clock import ManualClock
from tests.client_cli._driver import Terminal
from tests.client_cli.tui._screen import run_countdown, wait_for_text, wait_until


async def _key(url: str, name: str) -> str:
    async with asking(url) as asker:
        made = await asker.ask(CreateAccount(id=asker.next_id(), name=name))
    assert isinstance(made, AccountCreated)
    return made.key


async def test_a_rated_race_shows_ratings_in_the_lobby_and_changes_in_the_results(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    bob = Terminal(server_url)
    bob.session.account_key = await _key(server_url, "Bob")
    rated = Settings(countdown_s=1, rated=True, max_players=3)
    bob.start(lambda id_: CreateRoom(id=id_, variant="little-forty", name="B", settings=rated))
    try:
        await bob.wait_for("Share the code")
        code = bob.session.tracker.code
        assert code is not None

        def entry(id_: int) -> JoinRoom:
            return JoinRoom(id=id_, code=code, name="whoever")

        ada = RaceApp(server_url, entry, UNICODE, tmp_path / "state")
        ada.session.account_key = await _key(server_url, "Ada")
        async with ada.run_test(size=(100, 30)) as pilot:
            text = await wait_for_text(pilot, "Ada              unrated  not ready  (you)")
            assert "Rated: a race of two or more accounts changes their ratings." in text
            assert "#1 host Bob              unrated  not ready" in text
            await bob.type("ready", expect="You are ready.")
            await pilot.press("space")
            await run_countdown(pilot, ada, clock)
            await wait_until(pilot, lambda: ada.session.tracker.board is not None, "the board")
            await bob.type("resign", expect="You resigned")
            await pilot.press("x")
            await pilot.press("y")
            text = await wait_for_text(pilot, "Ratings after race 1: ")
            changes = re.findall(r"^ +\d\. (Bob|Ada) .* moves +([+-]\d+) *$", text, re.MULTILINE)
            assert sorted(name for name, _ in changes) == ["Ada", "Bob"]
            assert "provisional" in text
            assert "Ratings after" not in ada.state.message.plain  # the results say it
    finally:
        await bob.close()
