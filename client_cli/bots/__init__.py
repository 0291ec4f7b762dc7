"""The client's bot runner (a bot as a `Session`) and the team of bots a host
seats; how bots play is the top-level `bots` package."""

from bots.strategy import STRATEGIES, choose
from client_cli.bots.runner import BotPlan, run_bot
from client_cli.bots.team import BotTeam

__all__ = ["STRATEGIES", "BotPlan", "BotTeam", "choose", "run_bot"]
