"""The pure copy of a room, kept current from server messages: room, board, moves, checks."""
