"""The terminal client: play and watch races from a terminal.

Three layers, so other front ends can reuse the lower two: pure rendering,
room tracking and bot play (`render`, `room`, `tracker`, `visible`, `verify`,
`strategy`), the connection (`connection`, `session`, `bot`, a session
driven by a strategy, and `team`, the bots a host seats), and the front
ends: the full screen (`tui`, the default) and the line mode (`__main__
--plain`).
"""

from client_cli.bot import BotPlan, run_bot
from client_cli.connection import ConnectFailed, Connection
from client_cli.render import render, render_ranking, render_room
from client_cli.room import apply_event
from client_cli.session import Session
from client_cli.team import BotTeam
from client_cli.tracker import Tracker
from client_cli.verify import check_race
from client_cli.visible import visible_moves

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
