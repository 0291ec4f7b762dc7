"""A move's round trip on the play page beside the same move from a Python client.

One Little Forty room on a public deal, two seats: the play page (headless Chromium)
and a Python protocol client (the terminal client's codec and socket library, without
its drawing). Both play the same line, every stock move of the deal (draw three,
turn the waste over, three passes), taking turns move by move so that whatever else
the machine does weighs on both alike. The page's round trip runs from the key press
to its board drawn with the server's new version (a MutationObserver on the table);
the client's from sending the move to decoding its ``move_ok``. The page's first frame
after the key press (its ``move_ok``: nothing else is on the way then) is timed too, as
it reaches the page's script, before decoding and drawing.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

import engine
from protocol import (
    PROTOCOL_VERSION,
    CreateRoom,
    Hello,
    Joined,
    MakeMove,
    MoveOk,
    Ready,
    Settings,
    Welcome,
)
from protocol.codec import decode_server, encode

VARIANT = "little-forty"
DEAL = 1
STOCK_MOVES = ("draw", "recycle")
ARRIVALS = """
window.frameAt = null;
const NativeSocket = WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", () => { window.frameAt ??= performance.now(); });
  }
};
"""
TIMER = """() => {
  window.roundTrips = [];
  let pressed = null;
  document.addEventListener("keydown", (key) => {
    if (key.key === "d") { pressed = performance.now(); window.frameAt = null; }
  }, true);
  new MutationObserver(() => {
    const now = performance.now();
    if (pressed !== null) window.roundTrips.push([window.frameAt - pressed, now - pressed]);
    pressed = null;
  }).observe(document.getElementById("table"), {
    attributes: true, attributeFilter: ["data-version"],
  });
}"""
VERSION = "([v]) => document.getElementById('table').dataset.version === String(v)"


def stock_line() -> list[str]:
    """Every stock move of the deal, in order, until the stock is done."""
    game = engine.new_game(VARIANT, b"deal:%d" % DEAL)
    line: list[str] = []
    while True:
        legal = {move.format() for move in engine.legal_moves(game)}
        move = next((name for name in STOCK_MOVES if name in legal), None)
        if move is None:
            return line
        line.append(move)
        game = engine.apply(game, engine.Move.parse(move))


class Racer:
    """The Python client's seat: sends one move at a time and times its answer."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket, self.next_id, self.version = socket, 10, 0

    async def call(self, message: Any) -> Any:
        await self.socket.send(encode(message))
        while True:
            reply = decode_server(await self.socket.recv(decode=False))
            if getattr(reply, "id", None) == message.id:
                return reply

    async def move(self, move: str) -> float:
        self.next_id += 1
        request = MakeMove(
            id=self.next_id, move=move, move_id=f"m{self.next_id}", expected_version=self.version
        )
        start = time.perf_counter()
        reply = await self.call(request)
        took = (time.perf_counter() - start) * 1000
        assert isinstance(reply, MoveOk), reply
        self.version = reply.version
        return took

    async def wait_for(self, kind: str) -> None:
        while True:
            message = decode_server(await self.socket.recv(decode=False))
            if message.type == "event" and message.event.type == kind:
                return


async def hosted(url: str) -> tuple[Racer, str]:
    socket = await connect(url, compression=None)
    racer = Racer(socket)
    assert isinstance(await racer.call(Hello(id=1, version=PROTOCOL_VERSION)), Welcome)
    settings = Settings(deal_number=DEAL, countdown_s=1)
    joined = await racer.call(CreateRoom(id=2, variant=VARIANT, name="Client", settings=settings))
    assert isinstance(joined, Joined), joined
    return racer, joined.code


async def round_trips(chromium: Any, port: int) -> tuple[list[list[float]], list[float]]:
    """The page's round trips (to the frame, to the board drawn) and the client's, in ms,
    over the same line."""
    racer, code = await hosted(f"ws://127.0.0.1:{port}")
    page = await chromium.new_page(viewport={"width": 390, "height": 844})
    await page.add_init_script(ARRIVALS)
    try:
        await page.goto(f"http://127.0.0.1:{port}/play/{code}")
        await page.wait_for_function("() => document.body.dataset.step === 'join'")
        await page.fill("#join-name", "Page")
        await page.click("#join-form button[type=submit]")
        await page.wait_for_function("() => document.body.dataset.phase === 'lobby'")
        await page.click("#ready")
        assert (await racer.call(Ready(id=3, ready=True))).type == "ok"
        await racer.wait_for("race_started")
        await page.wait_for_function(VERSION, arg=[0])
        await page.evaluate(TIMER)
        client_ms: list[float] = []
        for number, move in enumerate(stock_line(), 1):
            await page.keyboard.press("d")
            await page.wait_for_function(VERSION, arg=[number], polling="raf")
            client_ms.append(await racer.move(move))
        page_ms: list[list[float]] = await page.evaluate("() => window.roundTrips")
        return page_ms, client_ms
    finally:
        await page.close()
        await racer.socket.close()


def _figures(times: list[float]) -> tuple[float, float]:
    return statistics.median(times), statistics.quantiles(times, n=10)[-1]


def print_round_trips(page_ms: list[list[float]], client_ms: list[float]) -> None:
    client = _figures(client_ms)
    print(f"A move's round trip on loopback, {len(client_ms)} stock moves each, taking turns:")
    print(
        f"  Python client, send to move_ok decoded: "
        f"median {client[0]:5.1f} ms, p90 {client[1]:5.1f}"
    )
    for what, index in (("key to move_ok received", 0), ("key to board drawn", 1)):
        page = _figures([times[index] for times in page_ms])
        print(
            f"  play page, {what + ':':25} median {page[0]:5.1f} ms, p90 {page[1]:5.1f}"
            f"  ({page[0] / client[0]:4.1f}x, p90 {page[1] / client[1]:4.1f}x the client)"
        )
