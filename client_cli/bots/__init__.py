"""Bots: the bot runner, its move strategies, and the team of bots a host seats."""

from client_cli.bots.runner import BotPlan, run_bot
from client_cli.bots.strategy import STRATEGIES, choose
from client_cli.bots.team import BotTeam

__all__ = ["STRATEGIES", "BotPlan", "BotTeam", "choose", "run_bot"]
