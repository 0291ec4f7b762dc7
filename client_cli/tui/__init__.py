"""The full-screen terminal client (Textual): lobby, race, watching and results."""

from client_cli.tui.app import RaceApp
from client_cli.tui.board import board_lines
from client_cli.tui.glyphs import ASCII, UNICODE, Glyphs, pick_glyphs
from client_cli.tui.panel import panel_lines

__all__ = ["ASCII", "UNICODE", "Glyphs", "RaceApp", "board_lines", "panel_lines", "pick_glyphs"]
