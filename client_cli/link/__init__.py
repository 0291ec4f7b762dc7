"""The socket and reconnect: one connection, requests in flight, outages, close codes."""
