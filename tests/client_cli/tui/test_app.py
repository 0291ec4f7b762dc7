"""The full-screen client against a real race server: keys, typed moves, screens."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

import engine
from client_cli.session import saved_seats
from client_cli.tui import UNICODE, RaceApp
from client_cli.tui.widgets import MoveLine
from engine import VARIANT_KEYS
from protocol import CreateRoom, JoinRoom, Settings
from protocol.limits import IDLE_WARNING_S
from server.clock import ManualClock
from tests.client_cli._driver import Terminal, ready_and_go
from tests.client_cli.tui._boards import deal_one, pile_rows
from tests.client_cli.tui._screen import (
    FAST,
    board_area,
    create,
    screen_text,
    start_race,
    wait_for_text,
    wait_until,
)

IDLE_S = 30


@pytest.mark.parametrize("variant", VARIANT_KEYS)
async def test_the_whole_board_of_every_game_is_on_an_80x24_screen_after_a_resize(
    clock: ManualClock, server_url: str, tmp_path: Path, variant: str
) -> None:
    app = create(server_url, variant, tmp_path / "state")
    async with app.run_test(size=(120, 40)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        board = deal_one(variant)
        headline = f"{engine.find_variant(variant).name}  {board.progress}/{board.total} home"
        text = await wait_for_text(pilot, headline)
        assert len(text.splitlines()) == 24
        for row in pile_rows(board):
            assert row in text, row
        for index in range(len(board.foundations)):
            assert f"f{index + 1} " in text
        assert "home: " in text
        assert "Ada (you)" in text
        assert re.search(r"1[45]:[0-5]\d left", text)  # the client's clock runs on real time


async def test_help_shows_the_keys_and_the_notation(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.press("question_mark")
        text = await wait_for_text(pilot, "t3:2 t7")
        assert "send every card that can go home" in text
        await pilot.press("z")
        await wait_until(pilot, lambda: "t3:2 t7" not in screen_text(app), "help to close")


async def test_ctrl_l_redraws_and_types_nothing(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        before = screen_text(app)
        await pilot.press("tab", "ctrl+l")
        await pilot.pause()
        assert app.screen.query_one(MoveLine).value == ""
        assert board_area(screen_text(app)) == board_area(before)


async def test_a_server_that_cannot_be_reached_ends_the_app_with_the_reason(
    tmp_path: Path,
) -> None:
    app = create("ws://127.0.0.1:1", "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.return_code is not None, "the app to end")
    assert app.return_code == app.return_value == 1
    assert "Cannot connect to ws://127.0.0.1:1" in app.notes[-1]


async def bob_hosts(server_url: str, settings: Settings = FAST) -> tuple[Terminal, str]:
    """Bob, in line mode, in a Little Forty room he has just created; its code."""
    bob = Terminal(server_url)
    bob.start(lambda id_: CreateRoom(id=id_, variant="little-forty", name="Bob", settings=settings))
    await bob.wait_for("Share the code")
    code = bob.session.tracker.code
    assert code is not None
    return bob, code


def ada_joins(server_url: str, code: str, state: Path) -> RaceApp:
    """The race screen of Ada, taking a seat in room `code`."""
    return RaceApp(server_url, lambda id_: JoinRoom(id=id_, code=code, name="Ada"), UNICODE, state)


async def race_with_bob(pilot: Pilot[int], ada: RaceApp, bob: Terminal, clock: ManualClock) -> None:
    """Ada, seated with Bob on her screen: Bob gets ready, and the race starts."""
    await wait_for_text(pilot, "Bob")
    await bob.type("ready")
    await start_race(pilot, ada, clock)


async def leave(pilot: Pilot[int], app: RaceApp) -> None:
    """Quit the race screen and wait until it has ended."""
    await pilot.press("ctrl+q")
    await wait_until(pilot, lambda: app.return_code is not None, "Ada to leave")


def late_spectator(server_url: str, code: str) -> RaceApp:
    """The race screen of a spectator coming to room `code` now."""
    return RaceApp(
        server_url, lambda id_: JoinRoom(id=id_, code=code, name="Late", role="spectator"), UNICODE
    )


def resumed(server_url: str, left: RaceApp, state: Path) -> RaceApp:
    """A new race screen resuming the one seat saved in `state` (`left` saved it)."""
    [saved] = saved_seats.load_all(state)
    again = RaceApp(server_url, left.entry, UNICODE, state)
    again.entry = again.session.resume_from(saved)
    return again


async def test_a_seat_resumed_after_the_race_ended_gets_the_results(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    bob, code = await bob_hosts(server_url)
    try:
        ada = ada_joins(server_url, code, tmp_path)
        async with ada.run_test(size=(80, 24)) as pilot:
            await race_with_bob(pilot, ada, bob, clock)
            await pilot.press("d")
            await wait_until(pilot, lambda: ada.session.tracker.version == 1, "the draw")
            await leave(pilot, ada)
        assert ada.notes[-1] == f"Your seat is kept until the race is over: solrace resume {code}"
        await bob.type("end", expect="Race 1 results:")
        again = resumed(server_url, ada, tmp_path)
        async with again.run_test(size=(80, 24)) as pilot:
            text = await wait_for_text(pilot, "Race 1 results")
            assert "Replayed your 1 move: 0 cards home, agrees." in text
            assert "matches the commit" in text and "WARNING" not in text
    finally:
        await bob.close()


async def test_an_idle_warning_rings_and_is_told_again_to_a_seat_resumed_under_it(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    bob, code = await bob_hosts(server_url, FAST.model_copy(update={"idle_limit_s": IDLE_S}))
    try:
        ada = ada_joins(server_url, code, tmp_path)
        async with ada.run_test(size=(80, 24)) as pilot:
            await race_with_bob(pilot, ada, bob, clock)
            await bob.type("resign", expect="You resigned")
            clock.advance((IDLE_S - IDLE_WARNING_S) * 1000)
            text = await wait_for_text(pilot, "You have been idle too long")
            assert re.search(r"Ada \(you\) +idle \d:\d\d", text), text
            assert ada.state.message.style == "bold red"
            await leave(pilot, ada)
        again = resumed(server_url, ada, tmp_path)
        async with again.run_test(size=(80, 24)) as pilot:
            text = await wait_for_text(pilot, "You have been idle too long")
            assert re.search(r"Ada \(you\) +idle \d:\d\d", text), text
    finally:
        await bob.close()


async def test_a_spectator_who_comes_after_the_race_gets_the_results(
    clock: ManualClock, server_url: str
) -> None:
    bob, code = await bob_hosts(server_url)
    try:
        await ready_and_go(clock, bob)
        await bob.type("draw", expect="cards home")
        await bob.type("resign", expect="Race 1 results:")
        late = late_spectator(server_url, code)
        async with late.run_test(size=(80, 24)) as pilot:
            text = await wait_for_text(pilot, "Race 1 results")
            assert "Replayed Bob's 1 move" in text and "matches the commit" in text
    finally:
        await bob.close()


async def test_a_spectator_who_comes_after_the_rematch_sees_how_the_race_before_ended(
    clock: ManualClock, server_url: str
) -> None:
    bob, code = await bob_hosts(server_url)
    try:
        await ready_and_go(clock, bob)
        await bob.type("draw", expect="cards home")
        clock.advance(7000)
        await bob.type("end", expect="Race 1 results:")
        await bob.type("rematch", expect="Rematch: back to the lobby for race 2.")
        for rows, shown in (
            (24, "  1. Bob was stopped by the host after 0:07.000 with 0/104 cards home"),
            (15, "0:07.000: 1. Bob 0/104"),  # too few rows for a line per player
        ):
            late = late_spectator(server_url, code)
            async with late.run_test(size=(80, rows)) as pilot:
                text = await wait_for_text(pilot, shown)
                assert "Last race (race 1), ended early by the host, Bob, at 0:07.000:" in text
    finally:
        await bob.close()


def message_rows(text: str) -> str:
    """The message under the board at 80x24 (rows 20 and 21, when it takes two)."""
    return " ".join(row.strip() for row in text.splitlines()[20:22])


async def test_a_refusal_longer_than_a_row_is_wrapped_and_read_in_full(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        before = screen_text(app)
        await pilot.press("H")  # no hints in a room that is not for practice
        refusal = (
            "Your hint request was refused (room/not-practice):"
            " hints are given in practice rooms only."
        )
        assert len(refusal) > 78
        text = await wait_for_text(pilot, "rooms only.")
        assert refusal in message_rows(text)
        assert board_area(text)[:20] == board_area(before)[:20]
        assert len(text.splitlines()) == 24
        assert text.splitlines()[-1] == before.splitlines()[-1]  # the keys stay


async def test_news_longer_than_a_row_is_shown_in_full(server_url: str, tmp_path: Path) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session.tracker.room is not None, "the room")
        await pilot.press("space")
        text = await wait_for_text(pilot, "Seed commit")
        room = app.session.tracker.room
        assert room is not None and room.seed_commit is not None
        news = f"Everyone is ready: race 1 starts in 1 s. Seed commit {room.seed_commit}."
        assert news in message_rows(text)


async def test_a_refused_move_names_its_cards_as_the_board_does(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    with pytest.raises(engine.IllegalMove) as refused:
        engine.apply(engine.replay("little-forty", b"deal:1", ()), engine.Move.parse("t3 t4"))
    reason = str(refused.value)
    assert reason.startswith("9s does not go on Qd")
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.press("tab", *"t3 t4", "enter")
        text = await wait_for_text(pilot, "t3 t4: 9♠ does not go on Q♦")
        assert f"t3 t4: {UNICODE.cards_in(reason).plain}" in text
        assert reason not in text
