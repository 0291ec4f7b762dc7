"""The play page's weight and how soon a link opens onto the lobby.

Weight: the files a browser loads for ``/play/CODE`` (the page, its CSS, every module it
imports however deep, the vendored libraries), read from the package as the server
serves them, summed uncompressed and gzipped (level 6, as a proxy would). Time: a race
server on loopback over an embedded Valkey; headless Chromium (Debian's, as the tests
use) opens the link with an empty cache, a name is typed as soon as the form shows, and
the page is timed from the start of the navigation to the form and to the lobby drawn.
Then a move's round trip on the page beside a Python client's (`bench._page_moves`).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import importlib.util
import os
import posixpath
import re
import shutil
import statistics
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

from bench._page_moves import print_round_trips, round_trips
from protocol import PROTOCOL_VERSION, CreateRoom, Hello, Joined, Settings, Welcome
from protocol.codec import decode_server, encode
from server.app import RaceServer
from server.config import Config
from server.ops.embedded import EmbeddedValkey
from server.store import Store
from server.web.page import asset

PAGE = "play.html"
STYLES = ("watch.css", "play.css", "icon.svg")
FIRST_MODULE = "play.js"
GZIP_LEVEL = 6
LOBBY = (
    "() => document.body.dataset.phase === 'lobby'"
    " && document.querySelectorAll('#seats li').length === 2"
)
CHROMIUM = os.environ.get("SOLRACE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
PHONE_WIDTH, PHONE_HEIGHT = 390, 844


def module_imports(name: str, script: str) -> set[str]:
    folder = posixpath.dirname(name)
    found = re.findall(r'from "(\.\.?/[^"]+)"', script)
    return {posixpath.normpath(posixpath.join(folder, path)) for path in found}


def page_files() -> dict[str, bytes]:
    """Every file the play page loads, by its name under static/."""
    files: dict[str, bytes] = {}
    wanted = {PAGE, *STYLES, FIRST_MODULE}
    while wanted - files.keys():
        name = sorted(wanted - files.keys())[0]
        found = asset(name)
        assert found is not None, name
        files[name] = found.body
        if name.endswith((".js", ".mjs")):
            wanted |= module_imports(name, found.body.decode())
    return files


def print_weight() -> None:
    files = page_files()
    raw = sum(len(body) for body in files.values())
    packed = sum(len(gzip.compress(body, GZIP_LEVEL)) for body in files.values())
    ours = {name: body for name, body in files.items() if not name.startswith("vendor/")}
    ours_raw = sum(len(body) for body in ours.values())
    ours_packed = sum(len(gzip.compress(body, GZIP_LEVEL)) for body in ours.values())
    print(f"Play page weight: {len(files)} files (HTML + JS + CSS + icon)")
    print(
        f"  all:              {raw / 1024:6.1f} KiB uncompressed, {packed / 1024:5.1f} KiB gzipped"
    )
    print(
        f"  without vendor/:  {ours_raw / 1024:6.1f} KiB uncompressed, "
        f"{ours_packed / 1024:5.1f} KiB gzipped"
    )


async def new_room(url: str) -> tuple[ClientConnection, str]:
    """A host's open connection (the room lives while its host is seated) and the code."""
    socket = await connect(url, compression=None)
    await socket.send(encode(Hello(id=1, version=PROTOCOL_VERSION, client="bench")))
    assert isinstance(decode_server(await socket.recv(decode=False)), Welcome)
    created = CreateRoom(id=2, variant="little-forty", name="Host", settings=Settings())
    await socket.send(encode(created))
    joined = decode_server(await socket.recv(decode=False))
    assert isinstance(joined, Joined), joined
    return socket, joined.code


async def time_to_lobby(port: int, runs: int) -> None:
    from playwright.async_api import async_playwright

    form_ms: list[float] = []
    lobby_ms: list[float] = []
    async with async_playwright() as driver:
        chromium = await driver.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            for _ in range(runs):
                host, code = await new_room(f"ws://127.0.0.1:{port}")
                page = await chromium.new_page(
                    viewport={"width": PHONE_WIDTH, "height": PHONE_HEIGHT}
                )  # a new context: an empty cache
                await page.goto(f"http://127.0.0.1:{port}/play/{code}", wait_until="commit")
                await page.wait_for_function(
                    "() => document.body?.dataset.step === 'join'", polling="raf"
                )
                form_ms.append(await page.evaluate("() => performance.now()"))
                await page.fill("#join-name", "Bench")
                await page.click("#join-form button[type=submit]")
                await page.wait_for_function(LOBBY, polling="raf")
                lobby_ms.append(await page.evaluate("() => performance.now()"))
                await page.context.close()
                await host.close()
        finally:
            await chromium.close()
    print(
        f"Opening the link on loopback, {runs} runs, empty cache (ms from the navigation's start):"
    )
    print(f"  join form shown:  median {statistics.median(form_ms):6.0f}, max {max(form_ms):6.0f}")
    print(
        f"  lobby shown:      median {statistics.median(lobby_ms):6.0f}, max {max(lobby_ms):6.0f}"
    )
    print("  (the lobby time includes Playwright typing the name and pressing the button)")


async def move_timings(port: int) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        chromium = await driver.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            print_round_trips(*await round_trips(chromium, port))
        finally:
            await chromium.close()


async def run(redis_url: str, runs: int) -> None:
    store = await Store.connect(redis_url, "bench:play:")
    config = replace(Config(), port=0, analysis_workers=0, host="127.0.0.1")
    try:
        async with RaceServer(config, store) as server:
            await time_to_lobby(server.port, runs)
            await move_timings(server.port)
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    print_weight()
    if not Path(CHROMIUM).is_file() or importlib.util.find_spec("playwright") is None:
        print(f"Time to the lobby: not measured (needs Playwright and Chromium at {CHROMIUM})")
        return
    with tempfile.TemporaryDirectory(prefix="solrace-bench-") as data_dir:
        valkey = EmbeddedValkey(Path(data_dir))
        try:
            asyncio.run(run(valkey.start(), args.runs))
        finally:
            valkey.stop()


if __name__ == "__main__":
    main()
