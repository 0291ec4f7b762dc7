"""The terminal client: play and watch races from a terminal.

Folders, lowest first (each imports only those before it): `words` (what a
player reads), `room` (the pure copy of a room), `link` (the socket and
reconnect), `session` (the stay in a room shared by every front end, saved
seats, kept accounts), `bots`, `records` (the commands outside a room:
accounts, history, profiles, leaderboards), and the front ends: `tui` (the
full screen, the default) and `line` (``--plain``). Only the entry points
(`__main__`, `args`) stay here.
"""

from client_cli.bots.runner import BotPlan, run_bot
from client_cli.bots.team import BotTeam
from client_cli.link.connection import ConnectFailed, Connection
from client_cli.room.tracker import Tracker
from client_cli.room.verify import check_race
from client_cli.room.visible import visible_moves
from client_cli.session.session import Session
from client_cli.words.render import render, render_ranking, render_room
from protocol.changes import apply_event

__all__ = [
    "BotPlan",
    "BotTeam",
    "ConnectFailed",
    "Connection",
    "Session",
    "Tracker",
    "apply_event",
    "check_race",
    "render",
    "render_ranking",
    "render_room",
    "run_bot",
    "visible_moves",
]
