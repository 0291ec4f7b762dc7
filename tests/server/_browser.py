"""A headless Chromium for the spectator page's tests, driven by Playwright.

Playwright drives the machine's own Chromium (Debian's ``chromium`` package,
or the executable named by SOLRACE_CHROMIUM); it never downloads one. Without
either, or without Playwright, the tests that need a browser skip and say why.
Each page records its console errors and uncaught exceptions, so a test can
require there were none.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("SOLRACE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 10_000


def chromium_missing() -> str | None:
    """Why no browser test can run here, or None when one can."""
    if not Path(CHROMIUM).is_file():
        return (
            f"no Chromium at {CHROMIUM}: install Debian's chromium package "
            "(apt-get install chromium) or set SOLRACE_CHROMIUM"
        )
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    return None


@dataclass
class Tab:
    """An open page and what went wrong in it."""

    page: Any
    errors: list[str] = field(default_factory=list)

    async def wait_for(self, script: str, *args: Any) -> Any:
        """Wait until the function `script` returns a truthy value in the page; that value."""
        handle = await self.page.wait_for_function(
            script, arg=list(args), timeout=WAIT_MS, polling=50
        )
        return await handle.json_value()

    async def run(self, script: str, *args: Any) -> Any:
        return await self.page.evaluate(script, list(args))


@contextlib.asynccontextmanager
async def browser() -> AsyncIterator[Any]:
    """A started headless Chromium; the test skips when there is none."""
    reason = chromium_missing()
    if reason is not None:
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        chromium = await driver.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            await chromium.close()


async def open_tab(chromium: Any, url: str, viewport: dict[str, int] = DESKTOP) -> Tab:
    """A new page at `url` whose console errors and uncaught exceptions are kept."""
    page = await chromium.new_page(viewport=viewport)
    tab = Tab(page)

    def on_console(message: Any) -> None:
        if message.type == "error":
            tab.errors.append(f"console: {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: tab.errors.append(f"uncaught: {error}"))
    page.on("requestfailed", lambda request: tab.errors.append(f"failed: {request.url}"))
    await page.goto(url)
    return tab


def artifact_dir(tmp_path: Path) -> Path:
    """Where screenshots go: SOLRACE_ARTIFACTS when set, else the test's temporary folder."""
    chosen = os.environ.get("SOLRACE_ARTIFACTS")
    folder = Path(chosen) if chosen else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextlib.asynccontextmanager
async def code_box(port: int) -> AsyncIterator[Tab]:
    """The page's code-box view on the server at `port`: its modules load, nothing connects.

    Its scripts' functions are imported and called there; no error may reach its console.
    """
    async with browser() as chromium:
        opened = await open_tab(chromium, f"http://127.0.0.1:{port}/watch/")
        yield opened
        assert opened.errors == []
