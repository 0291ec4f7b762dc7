from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text

from client_cli.room.visible import visible_moves
from client_cli.tui.board import PICKED, board_lines
from client_cli.tui.glyphs import ASCII, RED, UNICODE
from client_cli.tui.keys import Pick
from engine import VARIANT_KEYS
from tests.client_cli._samples import board
from tests.client_cli._snapshots import assert_snapshot

BOARD_WIDTH, BOARD_HEIGHT = 53, 20
"""What the race screen leaves the board at 80x24."""


def plain(lines: list[Text]) -> str:
    return "\n".join(line.plain.rstrip() for line in lines)


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_every_game_at_80x24_snapshot(variant: str) -> None:
    lines = board_lines(board(variant), UNICODE, BOARD_WIDTH, BOARD_HEIGHT)
    assert_snapshot(f"tui_{variant.replace('-', '_')}", plain(lines))


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_every_game_in_ascii_on_a_wide_terminal_snapshot(variant: str) -> None:
    lines = board_lines(board(variant), ASCII, 100, 30)
    assert_snapshot(f"tui_{variant.replace('-', '_')}_ascii_wide", plain(lines))


@pytest.mark.parametrize("variant", VARIANT_KEYS)
def test_the_board_never_outgrows_its_area_through_a_game(variant: str) -> None:
    """Forty moves of a pinned deal, always the last legal move listed (it builds
    long piles), each board checked against the race screen's area."""
    moves: tuple[str, ...] = ()
    for _ in range(40):
        shown = board(variant, moves=moves)
        lines = board_lines(shown, UNICODE, BOARD_WIDTH, BOARD_HEIGHT)
        assert len(lines) <= BOARD_HEIGHT
        assert max(len(line) for line in lines) <= BOARD_WIDTH
        legal = visible_moves(shown)
        if not legal:
            break
        moves += (legal[-1].format(),)
    assert len(moves) >= 5


def test_every_pile_and_foundation_of_little_billie_is_on_screen() -> None:
    shown = board("little-billie")
    text = plain(board_lines(shown, UNICODE, BOARD_WIDTH, BOARD_HEIGHT))
    for index in range(26):
        assert f"t{index + 1} " in text
    for index, suit in enumerate("♣♦♥♠♣♦♥♠"):
        arrow = "↑" if index < 4 else "↓"
        assert f"f{index + 1} {suit}{arrow}" in text
    assert "home: f1-f4 up from A, f5-f8 down from K" in text
    assert "redeals left 2" in text


def test_a_wider_area_puts_more_fans_in_a_row() -> None:
    narrow = board_lines(board("little-billie"), UNICODE, BOARD_WIDTH, BOARD_HEIGHT)
    wide = board_lines(board("little-billie"), UNICODE, 120, BOARD_HEIGHT)
    assert len(wide) < len(narrow)


def test_stock_waste_reserve_and_base_rank_are_shown() -> None:
    text = plain(board_lines(board("double-canfield-40", moves=("draw",)), UNICODE, 53, 20))
    assert "stock 54  w 3:" in text
    assert "r 2♣ +39" in text
    assert "turn-overs unlimited" in text
    assert "home: f1-f8 up in suit from base 2, K wraps to A" in text


def test_foundations_of_no_fixed_suit_are_said_to_build_in_suit() -> None:
    text = plain(board_lines(board("little-forty"), UNICODE, BOARD_WIDTH, BOARD_HEIGHT))
    assert "home: f1-f8 up in suit from A" in text
    assert "any suit" not in text  # read as "suits do not matter", which they do


def test_the_picked_cards_are_highlighted() -> None:
    lines = board_lines(board("little-forty"), UNICODE, 53, 20, Pick("t", 3, 2))
    row = next(line for line in lines if line.plain.startswith("t4 "))
    picked = [span for span in row.spans if PICKED in str(span.style)]
    assert [row.plain[span.start : span.end] for span in picked] == ["K♣", "Q♦"]


def test_red_cards_are_red() -> None:
    lines = board_lines(board("little-forty"), UNICODE, 53, 20)
    row = next(line for line in lines if line.plain.startswith("t1 "))
    reds = [row.plain[span.start : span.end] for span in row.spans if span.style == RED]
    assert reds == ["Q♥"]


def test_black_cards_keep_their_colour_after_a_label() -> None:
    """A label is a span of its own: the cards after it are not drawn in its colour."""
    shown = board("double-canfield-40", moves=("draw",))
    lines = board_lines(shown, UNICODE, BOARD_WIDTH, BOARD_HEIGHT)
    console = Console()
    colours = {}
    for line in lines:
        piles = [card for pile in shown.tableau for card in pile]
        for card in (*shown.foundations, *shown.waste, shown.reserve, *piles):
            face = UNICODE.card(card).plain
            if card is not None and f" {face}" in line.plain:
                offset = line.plain.index(f" {face}") + 1
                colours[face] = line.get_style_at_offset(console, offset).color
    assert len(colours) >= 4
    for face, colour in colours.items():
        red = face[1] in "♦♥"
        assert (colour is not None and colour.name == "red") if red else colour is None, face


def test_a_pile_too_long_for_its_rows_hides_its_bottom_cards_not_its_top() -> None:
    long_pile = board("little-forty").model_copy(
        update={"tableau": (("Kc", "Qd", "Jc", "Td", "9c", "8d", "7c", "6d") * 3,) * 10}
    )
    lines = board_lines(long_pile, UNICODE, 40, 12)
    row = next(line.plain for line in lines if line.plain.startswith("t1 "))
    assert row.split()[2].startswith("+")
    assert row.endswith("6♦")
    assert len(row) <= 40


def test_a_masked_card_on_a_spectators_board_is_drawn_as_a_card_back() -> None:
    masked = board("little-forty", moves=("draw",)).model_copy(update={"waste": ("??", "5d")})
    text = plain(board_lines(masked, UNICODE, BOARD_WIDTH, BOARD_HEIGHT))
    assert f"w 2: {UNICODE.back} 5♦" in text
