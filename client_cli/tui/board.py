"""The board as styled lines, fitted to a width and a height.

Pure: a `BoardView` in, `rich.text.Text` lines out, so every game's picture
is tested without a terminal. Labels match the move notation (``t3``, ``f2``,
``w``, ``r``), and each tableau pile also shows the key that picks it up.

Layout: a headline, the foundations (each with its suit when the game fixes
it, and its direction), a line saying where the foundations start, the stock,
waste, reserve and passes, then the tableau one pile per row. Little Billie's
26 fans never grow, so they sit side by side in as many columns as fit. A
pile longer than its rows hides its bottom cards behind a ``+n`` mark: the
top is what plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from client_cli.tui.glyphs import Glyphs
from client_cli.tui.keys import PILE_KEYS, Pick
from engine import Rules, find_variant
from engine.cards import RANKS
from protocol import BoardView

GAP = "  "
PICKED = "reverse"
LABEL = "bold cyan"
"""The style of pile names (a span, never a line's own style: cards after it keep theirs)."""


@dataclass(frozen=True, slots=True)
class _Scene:
    board: BoardView
    rules: Rules
    glyphs: Glyphs
    held: Pick | None
    keys: bool = True
    """Whether each pile's label shows the key that picks it (not on a watched board)."""


def board_lines(
    board: BoardView,
    glyphs: Glyphs,
    width: int,
    height: int,
    held: Pick | None = None,
    *,
    keys: bool = True,
) -> list[Text]:
    """The board in at most ``height`` lines of at most ``width`` cells; ``keys``: with
    the key that picks each pile (a spectator's boards have none)."""
    rules = find_variant(board.variant)
    top = [_headline(board, rules)]
    top += _foundation_rows(board, rules, glyphs, width)
    top.append(Text(_start_note(rules, board.base_rank), style="dim"))
    top += _stock_rows(board, rules, glyphs, held, width)
    scene = _Scene(board, rules, glyphs, held, keys)
    piles = _tableau_rows(scene, width, max(1, height - len(top)))
    spacer = [Text("")] if len(top) + len(piles) < height else []
    return [line[:width] if len(line) > width else line for line in top + spacer + piles]


def _headline(board: BoardView, rules: Rules) -> Text:
    line = Text(rules.name, style="bold")
    line.append(f"  {board.progress}/{board.total} home")
    if board.outcome != "playing":
        line.append(f"  {board.outcome.upper()}", style="bold yellow")
    return line


def _foundation_cell(board: BoardView, rules: Rules, glyphs: Glyphs, index: int) -> Text:
    cell = Text.assemble((f"f{index + 1} ", LABEL))
    suit = rules.foundation_suits[index]
    if suit is not None:
        cell.append_text(glyphs.suit(suit))
    cell.append(glyphs.down if rules.foundation_down[index] else glyphs.up, style="dim")
    cell.append(" ")
    cell.append_text(glyphs.card(board.foundations[index]))
    return cell


def _foundation_rows(board: BoardView, rules: Rules, glyphs: Glyphs, width: int) -> list[Text]:
    cells = [_foundation_cell(board, rules, glyphs, i) for i in range(len(board.foundations))]
    return _rows_of(cells, width)


def _start_note(rules: Rules, base_rank: int) -> str:
    """Where each foundation starts: "home: f1-f4 up from A, f5-f8 down from K"; "in
    suit" where a foundation takes the suit of its first card (not shown beside it)."""
    in_suit = " in suit" if all(suit is None for suit in rules.foundation_suits) else ""
    groups = []
    for down in (False, True):
        indexes = [i for i, d in enumerate(rules.foundation_down) if d == down]
        if indexes:
            start = RANKS[rules.start_rank(indexes[0], base_rank) - 1]
            span = f"f{indexes[0] + 1}-f{indexes[-1] + 1} "
            groups.append(f"{span}{'down' if down else 'up'}{in_suit} from {start}")
    note = "home: " + ", ".join(groups)
    if rules.base_from_deal:
        note = note.replace(" from ", " from base ") + ", K wraps to A"
    return note


def _stock_rows(
    board: BoardView, rules: Rules, glyphs: Glyphs, held: Pick | None, width: int
) -> list[Text]:
    parts: list[Text] = []
    if rules.stock == "draw":
        parts.append(Text(f"stock {board.stock}"))
        parts.append(_waste(board, glyphs, held))
    elif rules.stock == "deal":
        parts.append(Text(f"stock {board.stock} (deal: one card on each pile)"))
    if rules.redeals:
        parts.append(Text(f"redeals left {board.passes_left} (d redeals)"))
    elif rules.stock == "draw":
        left = "unlimited" if board.passes_left is None else f"left {board.passes_left}"
        parts.append(Text(f"turn-overs {left}"))
    if rules.reserve:
        parts.append(_reserve(board, glyphs, held))
    return _rows_of(parts, width) if parts else []


def _waste(board: BoardView, glyphs: Glyphs, held: Pick | None) -> Text:
    line = Text.assemble(("w", LABEL))
    line.append(f" {len(board.waste)}:")
    shown = board.waste[-3:]
    if not shown:
        line.append(" ")
        line.append_text(glyphs.card(None))
    for position, card in enumerate(shown):
        line.append(" ")
        face = glyphs.card(card)
        if held is not None and held.source == "w" and position == len(shown) - 1:
            face.stylize(PICKED)
        line.append_text(face)
    return line


def _reserve(board: BoardView, glyphs: Glyphs, held: Pick | None) -> Text:
    line = Text.assemble(("r", LABEL))
    line.append(" ")
    face = glyphs.card(board.reserve)
    if held is not None and held.source == "r":
        face.stylize(PICKED)
    line.append_text(face)
    line.append(f" +{board.reserve_hidden}", style="dim")
    return line


def _rows_of(cells: Sequence[Text], width: int) -> list[Text]:
    """Cells joined by gaps into as few rows as fit ``width``."""
    rows: list[Text] = []
    row = Text()
    for cell in cells:
        if len(row) and len(row) + len(GAP) + len(cell) > width:
            rows.append(row)
            row = Text()
        if len(row):
            row.append(GAP)
        row.append_text(cell)
    rows.append(row)
    return rows


def _tableau_rows(scene: _Scene, width: int, room: int) -> list[Text]:
    piles = len(scene.board.tableau)
    label_width = len(f"t{piles}") + 3
    if scene.rules.build is None:
        return _fan_columns(scene, width, label_width)
    lines_each = max(1, min(3, room // max(1, piles)))
    rows: list[Text] = []
    for index in range(piles):
        rows += _pile_rows(scene, index, label_width, width, lines_each)
    return rows


def _fan_columns(scene: _Scene, width: int, label: int) -> list[Text]:
    cell_width = label + 3 * scene.rules.dealt_per_pile - 1
    columns = max(1, (width + 1) // (cell_width + 1))
    count = len(scene.board.tableau)
    per_column = -(-count // columns)
    rows: list[Text] = []
    for row in range(per_column):
        line = Text()
        for index in range(row, count, per_column):
            if len(line):
                line.append(" ")
            cell = _pile_rows(scene, index, label, cell_width, 1)[0]
            cell.pad_right(cell_width - len(cell))
            line.append_text(cell)
        rows.append(line)
    return rows


def _pile_rows(scene: _Scene, index: int, label_width: int, width: int, lines: int) -> list[Text]:
    """One pile: its label and key, then its cards, the bottom ones hidden if they do not fit."""
    pile = scene.board.tableau[index]
    per_line = max(1, (width - label_width + 1) // 3)
    fits = per_line * lines
    hidden = len(pile) - fits + 1 if len(pile) > fits else 0
    faces = [_face(scene, index, position) for position in range(len(pile))]
    shown: list[Text] = faces[hidden:] or [scene.glyphs.card(None)]
    if hidden >= 10:
        hidden += 1
        shown = shown[1:]
    if hidden:
        shown.insert(0, Text(f"+{hidden}".ljust(2), style="dim"))
    rows: list[Text] = []
    for start in range(0, len(shown), per_line):
        head = _pile_label(scene, index, label_width) if not rows else Text(" " * label_width)
        rows.append(head + Text(" ").join(shown[start : start + per_line]))
    return rows


def _pile_label(scene: _Scene, index: int, width: int) -> Text:
    label = Text.assemble((f"t{index + 1}".ljust(width - 3), LABEL))
    key = PILE_KEYS[index] if scene.keys and index < len(PILE_KEYS) else " "
    label.append(f" {key} ", style="dim")
    return label


def _face(scene: _Scene, index: int, position: int) -> Text:
    pile, held = scene.board.tableau[index], scene.held
    face = scene.glyphs.card(pile[position])
    on_pile = held is not None and held.source == "t" and held.index == index
    if on_pile and held is not None and position >= len(pile) - (held.count or 1):
        face.stylize(PICKED)
    return face
