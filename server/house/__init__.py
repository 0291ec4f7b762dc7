"""House bots: the bot processes the server starts and watches over (docs/bots.md)."""

from server.house.supervisor import House

__all__ = ["House"]
