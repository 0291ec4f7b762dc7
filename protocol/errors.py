"""Error codes and close codes of the wire protocol.

A bad request gets an ``error`` reply naming one `ErrorCode` and the request id;
the connection stays open. Only a peer that breaks the framing itself is closed
with a `CloseCode`.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

from protocol.limits import MAX_MESSAGE_CHARS


class ErrorCode(StrEnum):
    """Why a request failed, as ``"area/what"``. Codes are stable, never renamed."""

    PROTO_MALFORMED = "proto/malformed"
    """The frame is not exactly one msgpack map."""
    PROTO_UNKNOWN_TYPE = "proto/unknown-type"
    """The map has no ``type`` or names a message this side does not know."""
    PROTO_INVALID = "proto/invalid"
    """A field is missing, has the wrong type, or is out of range."""
    PROTO_TOO_LONG = "proto/too-long"
    """A string or list is longer than its limit."""
    PROTO_TOO_LARGE = "proto/too-large"
    """The frame is larger than the maximum frame size."""
    PROTO_VERSION = "proto/version"
    """``hello`` asked for a protocol version this server does not speak."""
    PROTO_NO_HELLO = "proto/no-hello"
    """A request came before ``hello``, or ``hello`` came twice."""
    PROTO_RATE_LIMITED = "proto/rate-limited"
    """Too many requests; the request was not processed. Slow down and retry."""
    ROOM_NOT_FOUND = "room/not-found"
    """No room has this code (it may have expired)."""
    ROOM_FULL = "room/full"
    """Every seat (or every spectator place) is taken."""
    ROOM_NAME_TAKEN = "room/name-taken"
    """A seated player already has this name (compared ignoring case); pick another."""
    ROOM_WRONG_PHASE = "room/wrong-phase"
    """The request is not allowed in the room's current phase."""
    ROOM_NOT_HOST = "room/not-host"
    """Only the host may do this."""
    ROOM_NOT_MEMBER = "room/not-member"
    """The connection has not joined a room, or its seat is gone."""
    ROOM_ALREADY_MEMBER = "room/already-member"
    """The connection is already in a room; ``leave`` first."""
    ROOM_BAD_SETTINGS = "room/bad-settings"
    """The settings cannot apply now (e.g. fewer seats than seated players)."""
    ROOM_NO_WINNABLE_DEAL = "room/no-winnable-deal"
    """A winnable-only room needs a deal from the host's pool and none is left for
    this game; the host can fill the pool or turn winnable-only off."""
    ROOM_NOT_PRACTICE = "room/not-practice"
    """Hints are given in practice rooms only."""
    ROOM_BOT_LIMIT = "room/bot-limit"
    """The room has as many house bots as the server allows in one room, or the
    server's bot process runs as many as it may; a human seat is still free."""
    ROOM_NOT_A_BOT = "room/not-a-bot"
    """``remove_bot`` names a seat that no house bot holds."""
    SERVER_NO_HOUSE_BOTS = "server/no-house-bots"
    """This server runs no house bots (``--bot-workers 0``), or its bot process is
    down; seat a bot from a client (``solrace bot``) instead."""
    ACCOUNT_BAD_NAME = "account/bad-name"
    """The name breaks the rules for account names; the message says which."""
    ACCOUNT_NAME_TAKEN = "account/name-taken"
    """An account has this name or one that looks the same (case, confusable
    characters); a guest may not take it either."""
    ACCOUNT_BAD_KEY = "account/bad-key"
    """No account has this key (an unknown key and a wrong one are refused alike)."""
    ACCOUNT_NOT_SIGNED_IN = "account/not-signed-in"
    """The request needs a signed-in connection (``sign_in`` first)."""
    ACCOUNT_NOT_FOUND = "account/not-found"
    """No account has this name."""
    ACCOUNT_CONFIRM = "account/confirm"
    """``delete_account`` named another account than the signed-in one."""
    CHALLENGE_NOT_FOUND = "challenge/not-found"
    """No challenge has this code (or it closed longer ago than the server keeps it)."""
    CHALLENGE_NOT_RACED = "challenge/not-raced"
    """``create_challenge`` needs a finished race the caller raced in (seated in the
    room now, which is ``finished``)."""
    CHALLENGE_BAD_KEY = "challenge/bad-key"
    """``close_challenge`` with a key that is not this challenge's."""
    CHALLENGE_CLOSED = "challenge/closed"
    """``join_challenge`` of a challenge that has closed (its deal is public now)."""
    CHALLENGE_NO_RUN = "challenge/no-run"
    """``join_challenge`` named in ``ghosts`` a racer with no run in the challenge."""
    CHALLENGE_FIXED_ROOM = "challenge/fixed-room"
    """A challenge room keeps the challenge's game, deal and settings: no
    ``set_settings``, no ``rematch``."""
    AUTH_BAD_TOKEN = "auth/bad-token"
    """The resume token is unknown or its room has expired."""
    MOVE_INVALID = "move/invalid"
    """The move text cannot be read, or names a pile the variant lacks."""
    MOVE_ILLEGAL = "move/illegal"
    """The move is not legal in this position; the message says why."""
    MOVE_NO_EFFECT = "move/no-effect"
    """The move is legal but changes nothing (a whole pile onto an empty pile); it is
    not stored or counted. The message says what to send instead (a count: ``t1:3 t10``)."""
    MOVE_STALE_VERSION = "move/stale-version"
    """``expected_version`` is not the game's version; the reply carries the real one."""
    MOVE_NOT_RACING = "move/not-racing"
    """No race is running (not started yet, or over)."""
    MOVE_FINISHED = "move/finished"
    """This player's race is over (won, stuck, resigned or timed out)."""
    MOVE_SPECTATOR = "move/spectator"
    """Spectators cannot play."""
    MOVE_LIMIT = "move/limit"
    """The player has made the maximum number of moves for one race."""
    MOVE_ID_REUSED = "move/id-reused"
    """The ``move_id`` was already used for a move with other text; nothing was applied."""
    SERVER_BUSY = "server/busy"
    """The server cannot serve the request now (e.g. storage unavailable); retry later."""
    SERVER_INTERNAL = "server/internal"
    """An unexpected server failure; the request may not have been applied."""


class CloseCode(IntEnum):
    """WebSocket close codes the server uses."""

    NORMAL = 1000
    """The client left, or the server is done with the connection."""
    GOING_AWAY = 1001
    """The server is shutting down; reconnect (to any server) and ``resume``."""
    PROTOCOL_ERROR = 1002
    """Broken framing: a text frame, or a frame the WebSocket layer rejects."""
    POLICY = 1008
    """Rate limit abused: the client kept sending after ``proto/rate-limited``."""
    TOO_BIG = 1009
    """A frame far beyond the maximum frame size."""
    INTERNAL = 1011
    """The server hit an unexpected failure."""
    BAD_VERSION = 4000
    """``hello`` asked for an unsupported version; sent after the error reply."""
    HELLO_TIMEOUT = 4001
    """No ``hello`` arrived in time after connecting."""
    REPLACED = 4002
    """Another connection resumed with the same token; this one is closed."""
    SLOW_READER = 4003
    """The client fell too far behind reading what the server sends; reconnect and ``resume``."""
    LET_GO = 4004
    """While the server holding this connection could not reach its store, the room let
    the seat (or spectator place) go, and it cannot be given back here: reconnect and
    ``resume``, which says whether it is still yours (a lobby seat that is gone: join again)."""


class ProtocolError(Exception):
    """A frame that could not be turned into a message, with the request id if readable."""

    def __init__(self, code: ErrorCode, message: str, request_id: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message[:MAX_MESSAGE_CHARS]
        self.request_id = request_id

    def __repr__(self) -> str:
        return f"ProtocolError({self.code.value!r}, {self.message!r}, {self.request_id!r})"
