"""The msgpack codec: one binary WebSocket frame holds one message, a msgpack map.

Decoding unpacks with msgpack (arrays as tuples), then validates the Python
objects with the direction's `TypeAdapter`; nothing is parsed twice. Encoding
dumps the model in Python mode and packs it. Stored event bodies are framed by
byte concatenation (`encode_event_frame`), so fan-out never re-encodes.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, TypeVar

import msgpack
from pydantic import BaseModel, TypeAdapter, ValidationError

from engine import View
from protocol.board import BoardView
from protocol.client_messages import CLIENT_ADAPTER, ClientMessage
from protocol.errors import ErrorCode, ProtocolError
from protocol.limits import MAX_CLIENT_FRAME, MAX_REQUEST_ID, MAX_SERVER_FRAME
from protocol.server_messages import SERVER_ADAPTER, Error, ServerMessage

T = TypeVar("T")
_BOARD_FIELDS = tuple(BoardView.model_fields)
_board_values = attrgetter(*_BOARD_FIELDS)

_TOO_LONG = frozenset({"string_too_long", "too_long"})
_NO_TAG = frozenset({"union_tag_invalid", "union_tag_not_found"})
_EVENT_FRAME_HEAD = b"\x83" + msgpack.packb("type") + msgpack.packb("event") + msgpack.packb("seq")
_EVENT_KEY = msgpack.packb("event")


def encode(message: BaseModel) -> bytes:
    """Any message or event body as one msgpack map."""
    data: bytes = msgpack.packb(message.model_dump())
    return data


def encode_event_frame(seq: int, body: bytes) -> bytes:
    """``{"type": "event", "seq": seq, "event": <body>}`` around an encoded event body."""
    return b"".join((_EVENT_FRAME_HEAD, msgpack.packb(seq), _EVENT_KEY, body))


def encode_move_ok(
    request_id: int,
    move_id: str,
    version: int,
    view: View,
    at_ms: int,
) -> bytes:
    """``encode(MoveOk(...))`` for a board fresh from the engine, without the models.

    The move acknowledgement is the server's most frequent reply; its parts
    come straight from the engine and the validated request, so the fields
    are packed in the schema's order directly (a test pins the bytes equal).
    """
    board = dict(zip(_BOARD_FIELDS, _board_values(view), strict=True))
    data: bytes = msgpack.packb(
        {
            "type": "move_ok",
            "id": request_id,
            "move_id": move_id,
            "version": version,
            "board": board,
            "at_ms": at_ms,
            "progress": view.progress,
            "outcome": view.outcome,
        }
    )
    return data


def encode_progress(seat: int, progress: int, moves: int, outcome: str) -> bytes:
    """``encode(ProgressMade(...))`` without the model (a test pins the bytes equal)."""
    data: bytes = msgpack.packb(
        {"type": "progress", "seat": seat, "progress": progress, "moves": moves, "outcome": outcome}
    )
    return data


def decode_client(data: bytes) -> ClientMessage:
    """A client frame as a message; `ProtocolError` says what is wrong with it."""
    return _decode(data, CLIENT_ADAPTER, MAX_CLIENT_FRAME)


def decode_server(data: bytes) -> ServerMessage:
    """A server frame as a message; `ProtocolError` says what is wrong with it."""
    return _decode(data, SERVER_ADAPTER, MAX_SERVER_FRAME)


def peek_request_id(data: bytes) -> int | None:
    """The request id of a client frame, without validating the rest (cheap).

    For refusing a frame unread (over the rate limit) while still naming its id.
    """
    if len(data) > MAX_CLIENT_FRAME:
        return None
    try:
        return _request_id(_unpack(data))
    except ProtocolError:
        return None


def error_reply(error: ProtocolError) -> Error:
    """The ``error`` message that answers a frame that failed to decode."""
    return Error(id=error.request_id, code=error.code, message=error.message)


def _decode(data: bytes, adapter: TypeAdapter[T], max_bytes: int) -> T:
    if len(data) > max_bytes:
        raise ProtocolError(ErrorCode.PROTO_TOO_LARGE, f"frame over {max_bytes} bytes")
    obj = _unpack(data)
    try:
        return adapter.validate_python(obj)
    except ValidationError as exc:
        raise _invalid(exc, obj) from None


def _unpack(data: bytes) -> dict[str, Any]:
    try:
        obj = msgpack.unpackb(data, use_list=False, raw=False, strict_map_key=True)
    except Exception as exc:  # msgpack raises several unrelated types for bad input
        raise ProtocolError(ErrorCode.PROTO_MALFORMED, f"not msgpack: {exc}") from None
    if not isinstance(obj, dict):
        raise ProtocolError(ErrorCode.PROTO_MALFORMED, "a message is a msgpack map")
    return obj


def _invalid(exc: ValidationError, obj: dict[str, Any]) -> ProtocolError:
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    request_id = _request_id(obj)
    if errors[0]["type"] in _NO_TAG:
        text = f"unknown message type {obj.get('type')!r}"
        return ProtocolError(ErrorCode.PROTO_UNKNOWN_TYPE, text, request_id)
    too_long = [error for error in errors if error["type"] in _TOO_LONG]
    code = ErrorCode.PROTO_TOO_LONG if too_long else ErrorCode.PROTO_INVALID
    first = (too_long or errors)[0]
    path = ".".join(str(part) for part in first["loc"][1:]) or "message"
    return ProtocolError(code, f"{path}: {first['msg']}", request_id)


def _request_id(obj: dict[str, Any]) -> int | None:
    value = obj.get("id")
    if type(value) is int and 0 <= value <= MAX_REQUEST_ID:
        return value
    return None
