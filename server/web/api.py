"""The JSON the profile and leaderboard pages read: plain HTTP GETs on the WebSocket port.

``GET /api/players/NAME`` answers an account's `Profile` (NAME percent-decoded,
any script); ``GET /api/players/NAME/races?game=G&before=N&limit=L`` a page of its
races, newest first: ``name``, ``races`` and ``next_before`` (the ``before`` of the
next page, null on the last), as the ``history`` reply has them;
``GET /api/leaderboard/GAME?deal=N&offset=K&limit=L`` a board page:
``variant``, ``deal_number``, ``rows``, ``total`` and ``min_races``, as the
``leaderboard`` reply has them (without a deal the game's board by rating, with
one that public deal's fastest wins). Both are read through `Records`, which the
server fills with the account requests' functions (`server.requests.accounts`),
so the pages show what a client asking over the WebSocket is told. A refusal is
JSON too, ``{"code", "message"}`` with the wire's error code: 404 for an unknown
account, 400 for a bad game or number, 503 when the store cannot answer (and 429
from the server when the address asks too often, `too_many`). Answers
carry an ETag of their body and ``no-cache``: the browser asks again each time and
an unchanged answer is a 304.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from websockets.http11 import Response

from engine import VARIANT_KEYS
from protocol import HistoryEntry, LeaderboardRow, Profile, limits
from protocol.errors import ErrorCode
from server.lifecycle.room import RoomError
from server.store import StoreUnavailable
from server.web.page import etags, headers_for

__all__ = ["PAGE_SIZE", "PREFIX", "Board", "Races", "Records", "respond", "too_many"]

PREFIX = "/api/"
PAGE_SIZE = 20
"""Rows of a board or races of a page when the request names no ``limit``."""
_JSON = "application/json; charset=utf-8"
_MAX_OFFSET = 1_000_000
_STATUS = {
    ErrorCode.ACCOUNT_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.ACCOUNT_BAD_NAME: HTTPStatus.NOT_FOUND,  # no account can have that name
}


class Races(Protocol):
    """A page of an account's races, as the ``history`` reply has it."""

    @property
    def name(self) -> str: ...
    @property
    def races(self) -> tuple[HistoryEntry, ...]: ...
    @property
    def next_before(self) -> int | None: ...


class Board(Protocol):
    """A page of a leaderboard, as the ``leaderboard`` reply has it."""

    @property
    def variant(self) -> str: ...
    @property
    def deal_number(self) -> int | None: ...
    @property
    def rows(self) -> tuple[LeaderboardRow, ...]: ...
    @property
    def total(self) -> int: ...
    @property
    def min_races(self) -> int: ...


@dataclass(frozen=True)
class Records:
    """How the answers are read: an account's profile by name and a page of its races
    by (name, game or None, before or None, limit), each raising `RoomError`
    ``account/not-found`` when there is no such account; a board page by
    (game, deal or None, offset, limit)."""

    profile: Callable[[str], Awaitable[Profile]]
    races: Callable[[str, str | None, int | None, int], Awaitable[Races]]
    leaderboard: Callable[[str, int | None, int, int], Awaitable[Board]]


class BadQuery(Exception):
    """The request's path or query cannot be answered; the message says why."""


async def respond(records: Records, path: str, if_none_match: str | None = None) -> Response:
    """The answer to ``GET path`` for a path under `PREFIX`."""
    parts = urlsplit(path)
    try:
        body = await _answer(records, parts.path.removeprefix(PREFIX), parts.query)
    except BadQuery as bad:
        return _refusal(HTTPStatus.BAD_REQUEST, ErrorCode.PROTO_INVALID, str(bad))
    except RoomError as refused:
        status = _STATUS.get(refused.code, HTTPStatus.BAD_REQUEST)
        return _refusal(status, refused.code, refused.message)
    except StoreUnavailable:
        return _refusal(
            HTTPStatus.SERVICE_UNAVAILABLE, ErrorCode.SERVER_BUSY, "the store cannot answer now"
        )
    return _json(HTTPStatus.OK, body, if_none_match)


async def _answer(records: Records, route: str, query: str) -> dict[str, Any]:
    match route.split("/"):
        case ["players", name] if name:
            _only(_query(query), ())
            return await _profile(records, _decoded(name))
        case ["players", name, "races"] if name:
            return await _races(records, _decoded(name), _query(query))
        case ["leaderboard", game] if game:
            return await _leaderboard(records, _decoded(game), _query(query))
        case ["players" | "leaderboard", *_]:
            raise BadQuery(
                "the JSON is at /api/players/NAME, /api/players/NAME/races"
                " and /api/leaderboard/GAME"
            )
        case _:
            kind = route.partition("/")[0]
            raise BadQuery(f"no such JSON {kind!r}: there are players and leaderboard")


def _decoded(segment: str) -> str:
    """A path segment percent-decoded as UTF-8."""
    try:
        return unquote(segment, errors="strict")
    except UnicodeDecodeError:
        raise BadQuery(f"{segment!r} is not percent-encoded UTF-8") from None


async def _profile(records: Records, name: str) -> dict[str, Any]:
    profile = await records.profile(name)
    return profile.model_dump(mode="json")


async def _races(records: Records, name: str, query: dict[str, str]) -> dict[str, Any]:
    _only(query, ("game", "before", "limit"))
    game = _game(query["game"]) if "game" in query else None
    before = _number(query, "before", 0, limits.MAX_HISTORY) if "before" in query else None
    limit = _number(query, "limit", 1, limits.MAX_PAGE) if "limit" in query else PAGE_SIZE
    page = await records.races(name, game, before, limit)
    races = [race.model_dump(mode="json") for race in page.races]
    return {"name": page.name, "races": races, "next_before": page.next_before}


async def _leaderboard(records: Records, game: str, query: dict[str, str]) -> dict[str, Any]:
    _game(game)
    _only(query, ("deal", "offset", "limit"))
    deal = _number(query, "deal", 1, limits.MAX_DEAL_NUMBER) if "deal" in query else None
    offset = _number(query, "offset", 0, _MAX_OFFSET) if "offset" in query else 0
    limit = _number(query, "limit", 1, limits.MAX_PAGE) if "limit" in query else PAGE_SIZE
    board = await records.leaderboard(game, deal, offset, limit)
    return {
        "variant": board.variant,
        "deal_number": board.deal_number,
        "rows": [row.model_dump(mode="json") for row in board.rows],
        "total": board.total,
        "min_races": board.min_races,
    }


def _game(game: str) -> str:
    if game not in VARIANT_KEYS:
        raise BadQuery(f"there is no game {game!r}; the games are {', '.join(VARIANT_KEYS)}")
    return game


def _only(query: dict[str, str], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(query) - set(allowed))
    if unknown:
        use = f"use {', '.join(allowed)}" if allowed else "it takes none"
        raise BadQuery(f"unknown query field {unknown[0]!r}: {use}")


def _query(query: str) -> dict[str, str]:
    """The query's fields, each given once."""
    try:
        fields = parse_qs(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise BadQuery(f"the query {query!r} is not name=value pairs") from None
    repeated = sorted(name for name, values in fields.items() if len(values) > 1)
    if repeated:
        raise BadQuery(f"{repeated[0]!r} is given more than once")
    return {name: values[0] for name, values in fields.items()}


def _number(query: dict[str, str], name: str, low: int, high: int) -> int:
    text = query[name]
    digits = text.isascii() and text.isdigit() and len(text) <= len(str(high))
    if not digits or not low <= int(text) <= high:
        raise BadQuery(f"{name} must be a whole number from {low} to {high}, not {text!r}")
    return int(text)


def too_many(wait_s: float) -> Response:
    """The refusal of a request over the address's limit: 429, with the wait to retry."""
    seconds = max(1, math.ceil(wait_s))
    said = f"too many requests from your address; retry in {seconds} s"
    response = _refusal(HTTPStatus.TOO_MANY_REQUESTS, ErrorCode.PROTO_RATE_LIMITED, said)
    response.headers["Retry-After"] = str(seconds)
    return response


def _refusal(status: HTTPStatus, code: ErrorCode, message: str) -> Response:
    return _json(status, {"code": str(code), "message": message}, None)


def _json(status: HTTPStatus, value: dict[str, Any], if_none_match: str | None) -> Response:
    body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
    headers = headers_for(_JSON)
    headers["Cache-Control"] = "no-cache"
    if status == HTTPStatus.OK:
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        headers["ETag"] = etag
        if if_none_match is not None and etag in etags(if_none_match):
            return Response(HTTPStatus.NOT_MODIFIED, "Not Modified", headers, b"")
    headers["Content-Length"] = str(len(body))
    return Response(status, status.phrase, headers, body)
