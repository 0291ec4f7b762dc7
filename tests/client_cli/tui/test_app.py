"""The full-screen client against a real race server: keys, typed moves, screens."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from client_cli.tui import UNICODE
from client_cli.tui.keys import PILE_KEYS
from client_cli.tui.widgets import MoveLine
from client_cli.visible import visible_moves
from engine import VARIANT_KEYS
from protocol import BoardView, CreateRoom, JoinRoom
from tests.client_cli._driver import Terminal
from tests.client_cli.tui._screen import (
    FAST,
    create,
    join,
    screen_text,
    start_race,
    wait_for_text,
    wait_until,
)


def deal_one(variant: str, *moves: str) -> BoardView:
    return BoardView.from_engine(engine.view(engine.replay(variant, b"deal:1", moves)))


def pile_rows(board: BoardView) -> list[str]:
    """Each tableau pile as the board shows it: name, key, cards."""
    width = len(f"t{len(board.tableau)}")
    return [
        f"t{i + 1}".ljust(width)
        + f" {PILE_KEYS[i]} "
        + " ".join(UNICODE.card(c).plain for c in pile)
        for i, pile in enumerate(board.tableau)
    ]


@pytest.mark.parametrize("variant", VARIANT_KEYS)
async def test_the_whole_board_of_every_game_is_on_an_80x24_screen_after_a_resize(
    server_url: str, tmp_path: Path, variant: str
) -> None:
    app = create(server_url, variant, tmp_path / "state")
    async with app.run_test(size=(120, 40)) as pilot:
        await start_race(pilot, app)
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
        assert "Ada (you)" in text and "15:00 left" in text


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


async def test_a_refused_move_says_why_beside_the_board_and_nothing_scrolls(
    server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app)
        before = screen_text(app).splitlines()
        await pilot.press("tab", *"t1 t2", "enter")
        text = await wait_for_text(pilot, "t1 t2: ")
        after = text.splitlines()
        assert after[:20] == before[:20]  # the top bar and the whole board stay put
        assert app.session.tracker.version == 0


async def test_keys_pick_up_a_pile_and_put_it_on_another(server_url: str, tmp_path: Path) -> None:
    board = deal_one("little-forty")
    move = next(m for m in visible_moves(board) if m.src == "t" and m.dst == "t")
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app)
        await pilot.press(PILE_KEYS[move.src_index], PILE_KEYS[move.dst_index or 0])
        await wait_until(pilot, lambda: app.session.tracker.version == 1, "the move")
        text = f"t{move.src_index + 1} t{(move.dst_index or 0) + 1}"
        assert app.session.tracker.board == deal_one("little-forty", text)


async def test_one_key_sends_every_card_home_that_can_go(server_url: str, tmp_path: Path) -> None:
    app = create(server_url, "little-billie", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app)
        await pilot.press("a")
        await wait_for_text(pilot, "cards sent home.")
        board = app.session.tracker.board
        assert board is not None and board.progress > 0
        assert not [m for m in visible_moves(board) if m.dst == "f"]
        await pilot.press("d")  # nothing fits home any more: the fans are redealt
        await wait_until(pilot, lambda: app.session.tracker.board.passes_left == 1, "a redeal")  # type: ignore[union-attr]


async def test_the_move_line_completes_legal_moves_and_keeps_history(
    server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app)
        await pilot.press("tab", "t", "9")
        await pilot.pause(0.1)
        await pilot.press("right", "enter")  # the suggestion: t9:1 f1, the only move from t9
        await wait_until(pilot, lambda: app.session.tracker.version == 1, "the move")
        assert app.session.tracker.board == deal_one("little-forty", "t9:1 f1")
        await pilot.press("up")
        assert app.screen.query_one(MoveLine).value == "t9:1 f1"


async def test_a_race_with_an_opponent_played_to_the_results(
    server_url: str, tmp_path: Path
) -> None:
    app = create(server_url, "little-billie", tmp_path / "state")
    bob = Terminal(server_url)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.tracker.code is not None, "the room")
            code = app.session.tracker.code
            assert code is not None
            bob.start(lambda id_: JoinRoom(id=id_, code=code, name="Bob"))
            await wait_for_text(pilot, "Bob")
            await bob.type("ready")
            await start_race(pilot, app)
            await bob.type("t3 f", expect="1/104 cards home")
            text = await wait_for_text(pilot, "1/104 1m")  # Bob's progress, in the panel only
            assert "Bob" in text
            await pilot.press("a")
            await wait_for_text(pilot, "cards sent home.")
            await bob.type("resign", expect="resigned")
            await pilot.press("x")
            await wait_for_text(pilot, "Resign this race?")
            await pilot.press("y")
            text = await wait_for_text(pilot, "Race 1 results")
            assert "1. Ada" in text and "2. Bob" in text
            assert "matches the commit" in text
            assert "Replayed Ada's" in text and "Replayed Bob's 1 moves" in text
            assert "WARNING" not in text
    finally:
        await bob.close()


async def test_a_spectator_sees_the_players_board_and_the_panel(
    server_url: str, tmp_path: Path
) -> None:
    ada = Terminal(server_url)
    try:
        ada.start(
            lambda id_: CreateRoom(id=id_, variant="little-milligan", name="Ada", settings=FAST)
        )
        await ada.wait_for("Share the code")
        code = ada.session.tracker.code
        assert code is not None
        app = join(server_url, code, "watcher", role="spectator")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.tracker.room is not None, "the room")
            await ada.type("ready")
            text = await wait_for_text(pilot, "Ada (#1), move 0")
            for row in pile_rows(deal_one("little-milligan")):
                assert row in text
            assert "watching" in text
    finally:
        await ada.close()


async def test_help_shows_the_keys_and_the_notation(server_url: str, tmp_path: Path) -> None:
    app = create(server_url, "little-forty", tmp_path / "state")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_race(pilot, app)
        await pilot.press("question_mark")
        text = await wait_for_text(pilot, "t3:2 t7")
        assert "send every card that can go home" in text
        await pilot.press("z")
        await wait_until(pilot, lambda: "t3:2 t7" not in screen_text(app), "help to close")
