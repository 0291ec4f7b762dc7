"""The abusers of `bench.abuse_bench`, run in a process of their own.

``garbage``: one connection writes 10,000 frames that are not msgpack at once,
reads what comes back until it is closed or answered, and starts again (with
``--many-hosts``, 100 such connections at once, one million frames a round).
``pings``: 100 connections each send 100 pings at once, read their replies,
and start again. Both keep at it for ``--seconds``; a refused connection
(HTTP 429) is retried after a short pause. Each connection's address is given
in X-Forwarded-For (the bench server trusts loopback as a proxy): one host for
every connection, or with ``--many-hosts`` one host per connection.

Run: python -m bench._abuse_flood --url URL --kind garbage|pings --seconds S [--many-hosts]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.protocol import State
from websockets.uri import parse_uri

from protocol import PROTOCOL_VERSION

GARBAGE_FRAMES = 10_000
PING_CONNECTIONS, PINGS = 100, 100
MANY = 100
"""Addresses of a flood from many hosts."""
HELLO = msgpack.packb({"type": "hello", "id": 0, "version": PROTOCOL_VERSION, "client": "flood"})


class Tally:
    def __init__(self) -> None:
        self.sent = self.answered = self.refused = self.closed = 0


def wire_frames(payload: bytes, count: int) -> bytes:
    """`count` masked binary frames as a client puts them on the wire."""
    protocol = ClientProtocol(parse_uri("ws://flood.invalid/"))
    protocol.state = State.OPEN
    for _ in range(count):
        protocol.send_binary(payload)
    return b"".join(protocol.data_to_send())


async def dial(url: str, host: str, tally: Tally) -> ClientConnection | None:
    try:
        conn = await connect(
            url, additional_headers={"X-Forwarded-For": host}, compression=None, max_queue=None
        )
    except InvalidStatus:
        tally.refused += 1
        await asyncio.sleep(0.05)
        return None
    await conn.send(HELLO)
    await conn.recv()
    return conn


async def burst(conn: ClientConnection, wire: bytes, count: int, tally: Tally) -> None:
    """Write `count` frames at once; read replies until all came or the server closed."""
    conn.transport.write(wire)
    tally.sent += count
    try:
        for _ in range(count):
            await conn.recv()
            tally.answered += 1
        await conn.close()
    except ConnectionClosed:
        tally.closed += 1


async def garbage(url: str, host: str, deadline: float, tally: Tally) -> None:
    wire = wire_frames(b"\xc1", GARBAGE_FRAMES)
    while time.monotonic() < deadline:
        conn = await dial(url, host, tally)
        if conn is not None:
            await burst(conn, wire, GARBAGE_FRAMES, tally)


async def pinger(url: str, host: str, deadline: float, tally: Tally) -> None:
    wire = wire_frames(msgpack.packb({"type": "ping", "id": 1}), PINGS)
    while time.monotonic() < deadline:
        conn = await dial(url, host, tally)
        if conn is not None:
            await burst(conn, wire, PINGS, tally)


async def run(args: argparse.Namespace) -> Tally:
    tally = Tally()
    deadline = time.monotonic() + args.seconds
    print("flooding", flush=True)
    if args.kind == "garbage":
        hosts = [f"203.0.113.{n + 1}" for n in range(MANY)] if args.many_hosts else ["203.0.113.66"]
        await asyncio.gather(*(garbage(args.url, host, deadline, tally) for host in hosts))
    else:
        hosts = [
            f"203.0.113.{n % MANY + 1}" if args.many_hosts else "203.0.113.66"
            for n in range(PING_CONNECTIONS)
        ]
        await asyncio.gather(*(pinger(args.url, host, deadline, tally) for host in hosts))
    return tally


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--kind", choices=("garbage", "pings"), required=True)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--many-hosts", action="store_true")
    args = parser.parse_args()
    print(json.dumps(vars(asyncio.run(run(args)))), flush=True)


if __name__ == "__main__":
    main()
