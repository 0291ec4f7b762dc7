"""Shutdown drains: every request already read is answered before ``going_away``.

Players pipeline moves (all sent, no reply awaited) and the server stops while
most of them wait in their sessions. Each move read gets exactly one reply, every
move the store applied was acknowledged, and then each client gets ``going_away``
and the close 1001. Unanswered moves are resent after resume under the same id.
"""

from __future__ import annotations

from collections.abc import Sequence

import engine
from protocol import (
    CloseCode,
    Error,
    GoingAway,
    MakeMove,
    MoveOk,
    ServerMessage,
    Settings,
    decode_server,
    encode,
)
from server.store import Store
from tests.conftest import OpenStore
from tests.server._client import Client, start_race
from tests.server.conftest import ServerFactory

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


async def test_stop_answers_every_pipelined_move_before_going_away(
    open_store: OpenStore, start_server: ServerFactory
) -> None:
    server = await start_server(await open_store(), rate_per_s=1000.0, rate_burst=1000.0)
    url = f"ws://127.0.0.1:{server.port}"
    clients = [await Client.open(url, server.clock) for _ in range(3)]
    seated = await start_race(clients, VARIANT, SETTINGS)
    line = stock_line(PIPELINED)
    for client, joined in zip(clients, seated, strict=True):
        await pipeline(client, joined.seat or 0, line)
    await clients[0].wait_event("progress")
    await server.stop()

    code, store = seated[0].code, await open_store()
    for client, joined in zip(clients, seated, strict=True):
        assert await client.closed() == CloseCode.GOING_AWAY
        answered = replies(client)
        acked = [m.move_id for m in answered if isinstance(m, MoveOk)]
        log = await store.move_log(code, joined.seat or 0)
        assert [entry.move_id for entry in log] == acked
        ids = [getattr(m, "id", None) for m in answered]
        assert ids == list(range(FIRST_ID, FIRST_ID + PIPELINED)), ids
        assert all(isinstance(m, MoveOk | Error) for m in answered)
        last = decode_server(client.frames[-1])
        assert isinstance(last, GoingAway), last
        assert not any(isinstance(m, GoingAway) for m in map(decode_server, client.frames[:-1]))
    for client in clients:
        await client.close()


async def test_stop_with_nothing_in_flight_still_says_going_away(
    store: Store, start_server: ServerFactory
) -> None:
    server = await start_server(store)
    idle = await Client.open(f"ws://127.0.0.1:{server.port}", server.clock)
    silent = await Client.dial(f"ws://127.0.0.1:{server.port}", server.clock)
    await server.stop()
    for client in (idle, silent):
        assert await client.closed() == CloseCode.GOING_AWAY
        assert [m.type for m in client.pushed] == ["going_away"]
        await client.close()
