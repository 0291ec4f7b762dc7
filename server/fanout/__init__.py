"""Room events to this process's sockets, and spectators' delayed boards."""
