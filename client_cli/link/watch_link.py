"""The address of a room's spectator page, on the server a client talks to."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

_WEB_SCHEMES = {"ws": "http", "wss": "https"}


def watch_link(server: str, code: str) -> str:
    """``ws://host:port/path`` and a room code → ``http://host:port/path/watch/CODE``.

    The page is served on the WebSocket port; ``wss`` (TLS) becomes ``https``.
    """
    parts = urlsplit(server)
    scheme = _WEB_SCHEMES.get(parts.scheme.lower(), parts.scheme)
    path = parts.path.rstrip("/") + "/watch/" + code
    return urlunsplit((scheme, parts.netloc, path, "", ""))
