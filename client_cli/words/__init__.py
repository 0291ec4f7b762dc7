"""The words shown to a player: boards, rooms, news of room events, refusals, solver news."""

# `describe` and `render` are left out: as names here they would hide their modules.

from client_cli.words.describe import describe_error, sentence
from client_cli.words.render import player_name, render_ranking, render_room
from client_cli.words.solver_news import hint_text, verdict_text

__all__ = [
    "describe_error",
    "hint_text",
    "player_name",
    "render_ranking",
    "render_room",
    "sentence",
    "verdict_text",
]
