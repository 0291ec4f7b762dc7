"""Bots: the bot runner, its move strategies, and the team of bots a host seats."""
