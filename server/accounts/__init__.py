"""What outlives a room: accounts, their names and keys, ratings, history and records."""
