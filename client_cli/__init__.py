"""The terminal client: play and watch races from a terminal.

Three layers, so other front ends can reuse the lower two: pure rendering and
room tracking (`render`, `room`, `tracker`, `visible`, `verify`), the
connection (`connection`, `session`), and the front ends: the full screen
(`tui`, the default) and the line mode (`__main__ --plain`).
"""

from client_cli.connection import ConnectFailed, Connection
from client_cli.render import render, render_ranking, render_room
from client_cli.room import apply_event
from client_cli.session import Session
from client_cli.tracker import Tracker
from client_cli.verify import check_race
from client_cli.visible import visible_moves

__all__ = [
    "ConnectFailed",
    "Connection",
    "Session",
    "Tracker",
    "apply_event",
    "check_race",
    "render",
    "render_ranking",
    "render_room",
    "visible_moves",
]
