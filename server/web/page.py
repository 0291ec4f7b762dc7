"""The web pages: plain HTTP GETs answered on the WebSocket port.

``/watch/CODE`` is one page (``server/web/static/watch.html``) whose script joins
room CODE as a spectator over the same port's WebSocket; ``/watch/`` is the
same page with a box to type a code. ``/play/CODE`` (``play.html``) takes a seat
in room CODE and races in the page; ``/play/`` is the same page with a form to
create a room, and ``/`` leads there. ``/challenge/CODE`` is the play page
racing challenge CODE (a room of its own, with the challenge's runs as ghosts),
and ``/daily/GAME`` the play page racing GAME's deal of the day. ``/players/NAME``
(``players.html``) and ``/leaderboard/GAME`` (``leaderboard.html``) are pages whose
scripts read the JSON of ``server.web.api``; an unknown game's board page is
served with a 404 and says so. Every page's CSS and scripts are
``/watch/static/NAME`` (the other pages load them as ``../watch/static/NAME``), the
libraries they import ``/watch/static/vendor/...`` (each with its LICENSE). The
files ship inside the package and are read once. Every response carries an ETag
and asks the browser to check it again (``no-cache``), so a new version of a
page is seen at once and an unchanged one costs a 304.
"""

from __future__ import annotations

import email.utils
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from http import HTTPStatus
from importlib import resources
from urllib.parse import urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Response

from engine import VARIANT_KEYS
from protocol.limits import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH

__all__ = ["Asset", "asset", "etags", "headers_for", "respond"]

PAGE = "watch.html"
PLAY_PAGE = "play.html"
PROFILE_PAGE = "players.html"
BOARD_PAGE = "leaderboard.html"
_PAGES = {PAGE, PLAY_PAGE, PROFILE_PAGE, BOARD_PAGE}
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
_LICENCE = "LICENSE"
_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_CODE = re.compile(f"[{ROOM_CODE_ALPHABET}]{{{ROOM_CODE_LENGTH}}}")
_SEGMENT = re.compile(r"[^/]+")
_PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


@dataclass(frozen=True)
class Asset:
    """One file of the page, as served."""

    body: bytes
    content_type: str
    etag: str


@cache
def asset(name: str) -> Asset | None:
    """The packaged file `name` (``a.js``, ``vendor/lib/b.mjs``) of ``server/web/static``;
    None when there is no such file. No part of the path may start with a dot."""
    parts = name.split("/")
    if not all(_PART.fullmatch(part) for part in parts):
        return None
    suffix = name[name.rfind(".") :] if "." in parts[-1] else ""
    if parts[-1] == _LICENCE and len(parts) > 1:
        content_type = "text/plain; charset=utf-8"
    elif suffix in _TYPES:
        content_type = _TYPES[suffix]
    else:
        return None
    file = resources.files("server.web").joinpath("static", *parts)
    if not file.is_file():
        return None
    body = file.read_bytes()
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    return Asset(body, content_type, etag)


def respond(path: str, if_none_match: str | None = None) -> Response:
    """The answer to ``GET path`` for any path the WebSocket endpoint does not take."""
    route = urlsplit(path).path
    if route in ("/", "/play"):
        return _redirect("play/")
    if route == "/watch":
        return _redirect("watch/")
    if route.startswith("/play/"):
        return _room_page(PLAY_PAGE, route.removeprefix("/play/"), if_none_match)
    if route.startswith("/challenge/") and route != "/challenge/":
        return _room_page(PLAY_PAGE, route.removeprefix("/challenge/"), if_none_match)
    if route.startswith("/daily/"):
        return _daily(route.removeprefix("/daily/"), if_none_match)
    if route.startswith("/players/"):
        return _player(route.removeprefix("/players/"), if_none_match)
    if route == "/leaderboard" or route.startswith("/leaderboard/"):
        return _board(route, if_none_match)
    if not route.startswith("/watch/"):
        return _not_found(
            "no such page; the pages are /play/, /watch/, /challenge/CODE, /daily/GAME,"
            " /players/NAME and /leaderboard/GAME"
        )
    rest = route.removeprefix("/watch/")
    if rest.startswith("static/"):
        found = asset(rest.removeprefix("static/"))
        if found is None or rest.rsplit("/", 1)[-1] in _PAGES:
            return _not_found("no such file")
        return _file(found, if_none_match)
    return _room_page(PAGE, rest, if_none_match)


def _room_page(name: str, rest: str, if_none_match: str | None) -> Response:
    """Page `name` for room code `rest`, or with its form when `rest` is empty."""
    if rest == "" or _CODE.fullmatch(rest):
        return _page(name, if_none_match)
    if _CODE.fullmatch(rest.upper()):
        return _redirect(rest.upper())
    if rest.endswith("/") and _CODE.fullmatch(rest[:-1].upper()):
        return _redirect(f"../{rest[:-1].upper()}")  # relative: the page may sit under a prefix
    return _not_found(
        f"{rest!r} is not a room code: a code is {ROOM_CODE_LENGTH} characters of "
        f"{ROOM_CODE_ALPHABET}"
    )


def _daily(game: str, if_none_match: str | None) -> Response:
    """The play page racing `game`'s deal of the day."""
    if game in VARIANT_KEYS:
        return _page(PLAY_PAGE, if_none_match)
    return _not_found(f"no game {game!r}; the games are {', '.join(VARIANT_KEYS)}")


def _player(rest: str, if_none_match: str | None) -> Response:
    """A player's page for any one path segment: the page asks the server who that is."""
    if _SEGMENT.fullmatch(rest):
        return _page(PROFILE_PAGE, if_none_match)
    if rest.endswith("/") and _SEGMENT.fullmatch(rest[:-1]):
        return _redirect(f"../{rest[:-1]}")
    return _not_found("no such page; a player's page is /players/NAME")


def _board(route: str, if_none_match: str | None) -> Response:
    """A game's board; ``/leaderboard`` leads to the first game's."""
    first = VARIANT_KEYS[0]
    if route == "/leaderboard":
        return _redirect(f"leaderboard/{first}")
    rest = route.removeprefix("/leaderboard/")
    if rest == "":
        return _redirect(first)
    if rest.endswith("/") and _SEGMENT.fullmatch(rest[:-1]):
        return _redirect(f"../{rest[:-1]}")
    if not _SEGMENT.fullmatch(rest):
        return _not_found("no such page; a game's leaderboard is /leaderboard/GAME")
    status = HTTPStatus.OK if rest in VARIANT_KEYS else HTTPStatus.NOT_FOUND
    return _page(BOARD_PAGE, if_none_match, status)


def _page(name: str, if_none_match: str | None, status: HTTPStatus = HTTPStatus.OK) -> Response:
    page = asset(name)
    assert page is not None, f"the package lacks its page {name}"
    response = _file(page, if_none_match, status)
    response.headers["Content-Security-Policy"] = _PAGE_POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _file(found: Asset, if_none_match: str | None, status: HTTPStatus = HTTPStatus.OK) -> Response:
    headers = headers_for(found.content_type)
    headers["ETag"] = found.etag
    headers["Cache-Control"] = "no-cache"
    if status == HTTPStatus.OK and if_none_match is not None and found.etag in etags(if_none_match):
        return Response(HTTPStatus.NOT_MODIFIED, "Not Modified", headers, b"")
    headers["Content-Length"] = str(len(found.body))
    return Response(status, status.phrase, headers, found.body)


def etags(header: str) -> set[str]:
    """The entity tags an If-None-Match header lists, weak ones as strong."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",")}


def _redirect(location: str) -> Response:
    headers = headers_for("text/plain; charset=utf-8")
    headers["Location"] = location
    headers["Cache-Control"] = "no-cache"
    body = f"see {location}\n".encode()
    headers["Content-Length"] = str(len(body))
    return Response(HTTPStatus.FOUND, "Found", headers, body)


def _not_found(text: str) -> Response:
    headers = headers_for("text/plain; charset=utf-8")
    body = f"solrace: {text}\n".encode()
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-cache"
    return Response(HTTPStatus.NOT_FOUND, "Not Found", headers, body)


def headers_for(content_type: str) -> Headers:
    """The headers every answer carries, of type `content_type`."""
    return Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Type", content_type),
            ("X-Content-Type-Options", "nosniff"),
        ]
    )
