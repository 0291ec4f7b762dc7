"""One WebSocket connection: the session, its frames and socket, the dead-end watch."""
