"""The requests a typed command word sends, and how requests and closes are named to the player."""

from __future__ import annotations

from protocol import (
    ClientMessage,
    CloseCode,
    EndRace,
    Error,
    MakeMove,
    Ready,
    RequestRematch,
    Resign,
)

FINAL_CLOSES: dict[int, str] = {
    CloseCode.REPLACED: "Your seat was resumed from another connection.",
    CloseCode.BAD_VERSION: "The server does not speak this client's protocol version.",
    CloseCode.POLICY: "The server closed the connection: too many requests.",
}
"""Closes after which reconnecting cannot help, with what to tell the player."""

NOTED_CLOSES: dict[int, str] = {
    CloseCode.LET_GO: "The room let you go while your server could not reach it.",
}
"""Closes after which the client reconnects, with what the player is told first."""


def word_request(word: str, request_id: int) -> ClientMessage:
    """The request for ``ready``, ``unready``, ``resign``, ``end`` or ``rematch``."""
    if word in ("ready", "unready"):
        return Ready(id=request_id, ready=word == "ready")
    if word == "resign":
        return Resign(id=request_id)
    if word == "end":
        return EndRace(id=request_id)
    return RequestRematch(id=request_id)


def what(request: ClientMessage) -> str:
    """The request as the player knows it: ``move t3 t7``, ``your ready``."""
    return f"move {request.move}" if isinstance(request, MakeMove) else f"your {request.type}"


def server_error(error: Error) -> str:
    return f"Server error ({error.code.value}): {error.message}"
