"""The race and watch screens against a real race server: keys, typed moves, the panel."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from client_cli.room.visible import visible_moves
from client_cli.tui import UNICODE, RaceApp
from client_cli.tui.keys import PILE_KEYS, Pick
from client_cli.tui.race import top_line
from client_cli.tui.widgets import MoveLine
from protocol import CloseCode, CreateRoom, GoingAway, JoinRoom, Settings
from server.app import RaceServer
from server.clock import ManualClock
from tests.client_cli._driver import Terminal
from tests.client_cli._samples import room
from tests.client_cli.tui._boards import deal_one, masked_beyond, pile_rows
from tests.client_cli.tui._screen import (
    FAST,
    board_area,
    create,
    join,
    run_countdown,
    screen_text,
    start_race,
    wait_for_text,
    wait_until,
)


async def test_countdown_is_shown_big_with_the_seed_commitment(
    server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session.tracker.room is not None, "the room")
        await pilot.press("space")
        text = await wait_for_text(pilot, "Get ready!")
        room = app.session.tracker.room
        assert room is not None and room.seed_commit is not None
        assert room.seed_commit[:40] in text
        assert "█" in text


async def test_resigning_in_the_countdown_is_not_offered(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session.tracker.room is not None, "the room")
        await pilot.press("space")
        tracker = app.session.tracker
        await wait_until(pilot, lambda: tracker.countdown_target_ms() is not None, "countdown")
        await pilot.press("x")
        text = await wait_for_text(pilot, "The race has not started: there is nothing to resign")
        assert "Resign this race?" not in text
        await run_countdown(pilot, app, clock)
        await wait_until(pilot, lambda: tracker.board is not None, "the board")
        await pilot.press("x")
        await wait_for_text(pilot, "Resign this race?")


async def test_a_refused_move_says_why_beside_the_board_and_nothing_scrolls(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        before = board_area(screen_text(app))
        await pilot.press("tab", *"t1 t2", "enter")
        text = await wait_for_text(pilot, "t1 t2: ")
        assert board_area(text) == before  # the top bar and the whole board stay put
        assert "t1 t2: " in text.splitlines()[21]  # the line right under the board
        assert app.session.tracker.version == 0
        await pilot.press(*"draw", "enter")
        await wait_until(pilot, lambda: app.session.tracker.version == 1, "a draw")
        await pilot.pause()
        assert "t1 t2: " not in screen_text(app), "the refusal goes once a move is taken"


async def test_the_keys_and_the_move_line_speak_of_what_the_game_has(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-milligan", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        text = await wait_for_text(pilot, "1-8: piles  f h: home")
        assert "d: deal" in text and "w r" not in text and "draw" not in text
        assert "a move (t3 t7, t3 f, deal) or Esc for keys" in text


async def test_keys_pick_up_a_pile_and_put_it_on_another(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    board = deal_one("little-forty")
    move = next(m for m in visible_moves(board) if m.src == "t" and m.dst == "t")
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.press(PILE_KEYS[move.src_index])
        assert app.state.held == Pick("t", move.src_index)
        await pilot.press("escape")
        assert app.state.held is None
        await pilot.press(PILE_KEYS[move.src_index], PILE_KEYS[move.dst_index or 0])
        await wait_until(pilot, lambda: app.session.tracker.version == 1, "the move")
        text = f"t{move.src_index + 1} t{(move.dst_index or 0) + 1}"
        assert app.session.tracker.board == deal_one("little-forty", text)


async def test_one_key_sends_every_card_home_that_can_go(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-billie", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.press("a")
        await wait_for_text(pilot, "cards sent home.")
        board = app.session.tracker.board
        assert board is not None and board.progress > 0
        assert not [m for m in visible_moves(board) if m.dst == "f"]
        await pilot.press("d")  # nothing fits home any more: the fans are redealt
        await wait_until(pilot, lambda: app.session.tracker.board.passes_left == 1, "a redeal")  # type: ignore[union-attr]


async def test_the_move_line_completes_legal_moves_and_keeps_history(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.press("tab", "t", "9")
        await pilot.pause(0.1)
        await pilot.press("right", "enter")  # the suggestion: t9:1 f1, the only move from t9
        await wait_until(pilot, lambda: app.session.tracker.version == 1, "the move")
        assert app.session.tracker.board == deal_one("little-forty", "t9:1 f1")
        await pilot.press("up")
        assert app.screen.query_one(MoveLine).value == "t9:1 f1"


async def _race_with_bob(
    pilot: Pilot[int], app: RaceApp, bob: Terminal, clock: ManualClock
) -> None:
    """Bob joins the app's room from a line client and says ready; the race starts."""
    await wait_until(pilot, lambda: app.session.tracker.code is not None, "the room")
    code = app.session.tracker.code
    assert code is not None
    bob.start(lambda id_: JoinRoom(id=id_, code=code, name="Bob"))
    await wait_for_text(pilot, "Bob")
    await bob.type("ready")
    await start_race(pilot, app, clock)


async def test_a_race_with_an_opponent_played_to_the_results(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-billie", tmp_path / "state")
    bob = Terminal(server_url)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _race_with_bob(pilot, app, bob, clock)
            await pilot.press("tab", "t", "1")  # half a move typed when Bob moves
            await bob.type("t3 f", expect="1/104 cards home")
            text = await wait_for_text(pilot, "1/104 1m")  # Bob's progress, in the panel only
            assert "Bob: 1/104" not in text  # no line of news for it
            assert app.screen.query_one(MoveLine).value == "t1"
            await pilot.press("escape")
            await pilot.press("a")
            await wait_for_text(pilot, "cards sent home.")
            await bob.type("resign", expect="resigned")
            await pilot.press("x")
            await wait_for_text(pilot, "Resign this race?")
            await pilot.press("y")
            text = await wait_for_text(pilot, "Race 1 results")
            assert "1. Ada" in text and "2. Bob" in text
            assert "matches the commit" in text
            assert "Replayed your" in text and "Replayed Bob's 1 move:" in text
            assert "WARNING" not in text
    finally:
        await bob.close()


async def test_once_your_race_is_over_the_key_line_says_so_while_others_race(
    clock: ManualClock, server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    bob = Terminal(server_url)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _race_with_bob(pilot, app, bob, clock)
            assert "d: draw" in screen_text(app).splitlines()[-1]
            await pilot.press("x", "y")
            text = await wait_for_text(pilot, "Your race is over (resigned)")
            assert "results when all are done" in text.splitlines()[-1]
            assert "d: draw" not in text
    finally:
        await bob.close()


async def test_a_spectator_sees_every_board_side_by_side_or_one_at_a_time(
    server_url: str, clock: ManualClock
) -> None:
    ada, bob = Terminal(server_url), Terminal(server_url)
    try:
        ada.start(
            lambda id_: CreateRoom(id=id_, variant="little-milligan", name="Ada", settings=FAST)
        )
        await ada.wait_for("Share the code")
        code = ada.session.tracker.code
        assert code is not None
        bob.start(lambda id_: JoinRoom(id=id_, code=code, name="Bob"))
        await bob.wait_for("Share the code")
        app = join(server_url, code, "watcher", role="spectator")
        async with app.run_test(size=(140, 30)) as pilot:
            await wait_until(pilot, lambda: app.session.tracker.room is not None, "the room")
            await ada.type("ready")
            await bob.type("ready")
            await run_countdown(pilot, app, clock)
            await bob.wait_for("GO!")
            await bob.type("deal", expect="stock 36")
            text = await wait_for_text(pilot, "Bob (#2), move 1")
            assert "Ada (#1), move 0" in text
            dealt = masked_beyond(deal_one("little-milligan", "deal"), deal_one("little-milligan"))
            watched = pile_rows(deal_one("little-milligan"), keys=False)
            for row in watched + pile_rows(dealt, keys=False):
                assert row in text  # Ada has not seen the cards Bob dealt: they are card backs
            for row in pile_rows(dealt):
                assert row not in text  # no pile keys: a spectator picks up no pile
            assert "watching" in text and "Bob" in text
            await pilot.resize_terminal(80, 24)

            def one_board() -> bool:
                shown = screen_text(app)
                return "Ada (#1), move 0" in shown and "Bob (#2)" not in shown

            await wait_until(pilot, one_board, "one board at 80x24: the first racer's")
            await pilot.press("n")
            text = await wait_for_text(pilot, "Bob (#2), move 1")
            assert "Ada (#1)" not in text
            await pilot.press("question_mark")
            text = await wait_for_text(pilot, "the previous racer's board first")
            assert "pick up pile" not in text  # a spectator's keys, not a player's
    finally:
        await ada.close()
        await bob.close()


async def test_a_minute_before_the_end_the_player_is_warned(
    clock: ManualClock, server_url: str
) -> None:
    def entry(id_: int) -> CreateRoom:
        settings = FAST.model_copy(update={"time_limit_s": 120})
        return CreateRoom(id=id_, variant="little-forty", name="Ada", settings=settings)

    app = RaceApp(server_url, entry, UNICODE)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        assert app.warned == set()
        conn = app.session.conn
        assert conn is not None
        conn.offset_ms += 60_000  # the client's server clock a minute into the race
        text = await wait_for_text(pilot, "One minute left!")
        assert "0:59 left  1 minute" in text or "1:00 left  1 minute" in text
        assert app.warned == {60}


async def test_after_a_reconnect_the_screen_says_so_and_keys_play_on(
    clock: ManualClock, server_url: str, race_server: RaceServer, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app, clock)
        await pilot.press("d")
        await wait_until(pilot, lambda: app.session.tracker.version == 1, "the draw")
        for server_side in list(race_server.sessions):
            await server_side.send(GoingAway(reconnect_in_ms=50, message="restarting"))
            await server_side.conn.close(CloseCode.GOING_AWAY, "restarting")
        await wait_until(pilot, lambda: any("Back in room" in n for n in app.notes), "resume")
        assert any(note.startswith("Connection lost. Reconnecting...") for note in app.notes)
        assert "Reconnecting" not in screen_text(app)
        back = [note for note in app.notes if note.startswith("Back in room")]
        assert back == [f"Back in room {app.session.tracker.code}."]  # the board is beside it
        await pilot.press("d")
        await wait_until(pilot, lambda: app.session.tracker.version == 2, "a draw after it")
        assert "stock 58  w 6:" in screen_text(app)


def test_the_top_line_names_the_deal() -> None:
    def deal(settings: Settings) -> str:
        return top_line(room(settings=settings), 0).plain

    assert "race 1  winnable deal  you: Ada" in deal(Settings(winnable_only=True))
    assert "race 1  secret deal  you: Ada" in deal(Settings())
    assert "race 1  deal 7  you: Ada" in deal(Settings(deal_number=7))
