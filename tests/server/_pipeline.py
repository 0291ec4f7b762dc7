"""Pipelined moves: a player sends a run of moves at once and reads the replies later."""

from __future__ import annotations

from collections.abc import Sequence

import engine
from protocol import MakeMove, ServerMessage, Settings, decode_server, encode
from tests.server._client import Client

VARIANT, DEAL = "double-canfield-40", 3
SETTINGS = Settings(countdown_s=1, deal_number=DEAL)
PIPELINED = 12
FIRST_ID = 1000
"""Request ids of the pipelined moves start here, clear of the client's own counter."""


def stock_line(count: int) -> list[str]:
    """`count` stock moves of the pinned deal (draw, or recycle when the stock is empty)."""
    state, line = engine.new_game(VARIANT, b"deal:%d" % DEAL), []
    for _ in range(count):
        legal = [move.format() for move in engine.legal_moves(state)]
        text = "draw" if "draw" in legal else "recycle"
        state = engine.apply(state, engine.Move.parse(text))
        line.append(text)
    return line


async def pipeline(client: Client, seat: int, line: Sequence[str]) -> None:
    """Send every move of `line` with consecutive expected versions, awaiting no reply."""
    for version, text in enumerate(line):
        request = MakeMove(
            id=FIRST_ID + version,
            move=text,
            move_id=f"s{seat}-m{version}",
            expected_version=version,
        )
        await client.send_raw(encode(request))


def replies(client: Client) -> list[ServerMessage]:
    """Replies to the pipelined moves, in arrival order."""
    received = [decode_server(frame) for frame in client.frames]
    return [m for m in received if (getattr(m, "id", None) or 0) >= FIRST_ID]
