"""Bot play over protocol and engine: levels, move strategies and the strong
search, each a pure function of the board a player sees. The shells that seat
bots (the client's runner today) import this package; it imports no shell."""

from bots.levels import DEFAULT_LEVEL, LEVELS, Level, parse_level, think_time
from bots.selfplay import Played, play_deal, play_out
from bots.strategy import STRATEGIES, choose, choose_at

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "STRATEGIES",
    "Level",
    "Played",
    "choose",
    "choose_at",
    "parse_level",
    "play_deal",
    "play_out",
    "think_time",
]
