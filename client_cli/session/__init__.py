"""The session shared by every front end: one stay in a room, commands, saved seats, resume."""
