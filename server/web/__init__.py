"""The web pages (watch a race, a player's profile, leaderboards), their files and JSON."""
