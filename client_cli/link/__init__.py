"""The socket and reconnect: one connection, requests in flight, outages, close codes."""

from client_cli.link.connection import ConnectFailed, Connection
from client_cli.link.outage import Outage
from client_cli.link.pending import Pending
from client_cli.link.watch_link import play_link, watch_link

__all__ = ["ConnectFailed", "Connection", "Outage", "Pending", "play_link", "watch_link"]
