"""House bots: the bot process the server starts, playing the seats it hands over
(``python -m bots.house --server URL``; docs/bots.md has its contract)."""

from bots.house.control import Drive, Drop, Stop, parse_command
from bots.house.process import HouseProcess
from bots.house.seat import HouseSeat

__all__ = ["Drive", "Drop", "HouseProcess", "HouseSeat", "Stop", "parse_command"]
