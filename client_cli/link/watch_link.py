"""The addresses of a room's pages (play, watch) and a challenge's, on the server a
client talks to."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

_WEB_SCHEMES = {"ws": "http", "wss": "https"}


def watch_link(server: str, code: str) -> str:
    """``ws://host:port/path`` and a room code → ``http://host:port/path/watch/CODE``.

    The page is served on the WebSocket port; ``wss`` (TLS) becomes ``https``.
    """
    return _page_link(server, "watch", code)


def play_link(server: str, code: str) -> str:
    """``ws://host:port/path`` and a room code → ``http://host:port/path/play/CODE``:
    the page where a friend takes a seat and races in the browser."""
    return _page_link(server, "play", code)


def challenge_link(server: str, code: str) -> str:
    """``ws://host:port/path`` and a challenge code → ``http://host:port/path/challenge/CODE``:
    the page where anyone races the challenge in the browser."""
    return _page_link(server, "challenge", code)


def _page_link(server: str, page: str, code: str) -> str:
    parts = urlsplit(server)
    scheme = _WEB_SCHEMES.get(parts.scheme.lower(), parts.scheme)
    path = f"{parts.path.rstrip('/')}/{page}/{code}"
    return urlunsplit((scheme, parts.netloc, path, "", ""))
