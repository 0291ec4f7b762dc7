"""A move's round trip on the play page beside the same move in the terminal client.

One Little Forty room on a public deal, two seats: the play page (headless Chromium)
and the terminal client's plain-mode session (``client_cli``, in the bench's process).
Both play the same line, every stock move of the deal (draw three, turn the waste
over, three passes), taking turns move by move so that whatever else the machine does
weighs on both alike. The page's round trip runs from the key press to its board drawn
with the server's new version (a MutationObserver on the table); the terminal's from
the line typed to the new board written out. The page's first frame after the key
press (its ``move_ok``: nothing else is on the way then) is timed too, as it reaches
the page's script, before decoding and drawing.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import engine
from client_cli.session.session import Entry, Session
from protocol import CreateRoom, Settings

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


class Terminal:
    """The terminal client's plain-mode session, fed typed lines; ``until`` waits for
    what it shows (it writes out every message it takes in, boards included)."""

    def __init__(self, url: str) -> None:
        self.lines: asyncio.Queue[str] = asyncio.Queue()
        self.shown = asyncio.Event()
        self.session = Session(url, lambda text: self.shown.set())
        self.task: asyncio.Task[int] | None = None

    async def _typed(self) -> AsyncIterator[str]:
        while True:
            yield await self.lines.get()

    def start(self, entry: Entry) -> None:
        self.task = asyncio.create_task(self.session.run(entry, self._typed()))

    async def until(self, done: Callable[[], object]) -> None:
        while True:
            self.shown.clear()
            if done():
                return
            await self.shown.wait()

    async def move(self, move: str, version: int) -> float:
        """Type ``move``; ms until the session shows the board at ``version``."""
        start = time.perf_counter()
        await self.lines.put(move)
        await self.until(lambda: self.session.tracker.version == version)
        return (time.perf_counter() - start) * 1000

    async def quit(self) -> None:
        await self.lines.put("quit")
        if self.task is not None:
            await self.task


async def round_trips(chromium: Any, port: int) -> tuple[list[list[float]], list[float]]:
    """The page's round trips (to the frame, to the board drawn) and the terminal
    client's, in ms, over the same line."""
    terminal = Terminal(f"ws://127.0.0.1:{port}")
    settings = Settings(deal_number=DEAL, countdown_s=1)
    terminal.start(
        lambda id_: CreateRoom(id=id_, variant=VARIANT, name="Terminal", settings=settings)
    )
    tracker = terminal.session.tracker
    await terminal.until(lambda: tracker.code)
    page = await chromium.new_page(viewport={"width": 390, "height": 844})
    await page.add_init_script(ARRIVALS)
    try:
        await page.goto(f"http://127.0.0.1:{port}/play/{tracker.code}")
        await page.wait_for_function("() => document.body.dataset.step === 'join'")
        await page.fill("#join-name", "Page")
        await page.click("#join-form button[type=submit]")
        await page.wait_for_function("() => document.body.dataset.phase === 'lobby'")
        await page.click("#ready")
        await terminal.lines.put("ready")
        await terminal.until(lambda: tracker.room is not None and tracker.room.phase == "racing")
        await page.wait_for_function(VERSION, arg=[0])
        await page.evaluate(TIMER)
        terminal_ms: list[float] = []
        for number, move in enumerate(stock_line(), 1):
            await page.keyboard.press("d")
            await page.wait_for_function(VERSION, arg=[number], polling="raf")
            terminal_ms.append(await terminal.move(move, number))
        page_ms: list[list[float]] = await page.evaluate("() => window.roundTrips")
        return page_ms, terminal_ms
    finally:
        await page.close()
        await terminal.quit()


def _figures(times: list[float]) -> tuple[float, float]:
    return statistics.median(times), statistics.quantiles(times, n=10)[-1]


def print_round_trips(page_ms: list[list[float]], terminal_ms: list[float]) -> None:
    terminal = _figures(terminal_ms)
    print(f"A move's round trip on loopback, {len(terminal_ms)} stock moves each, taking turns:")
    print(
        f"  terminal client, line typed to board shown: "
        f"median {terminal[0]:5.1f} ms, p90 {terminal[1]:5.1f}"
    )
    for what, index in (("key to move_ok received", 0), ("key to board drawn", 1)):
        page = _figures([times[index] for times in page_ms])
        print(
            f"  play page, {what + ':':31} median {page[0]:5.1f} ms, p90 {page[1]:5.1f}"
            f"  ({page[0] / terminal[0]:4.1f}x, p90 {page[1] / terminal[1]:4.1f}x the terminal)"
        )
