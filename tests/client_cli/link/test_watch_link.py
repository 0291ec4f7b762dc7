"""The spectator page's link, printed beside the room code."""

from __future__ import annotations

import asyncio
import re
import urllib.request
from collections.abc import AsyncIterator

import pytest

from client_cli.link.watch_link import watch_link
from protocol import CreateRoom, Settings
from tests.client_cli._driver import Terminal


@pytest.mark.parametrize(
    ("server", "link"),
    [
        ("ws://127.0.0.1:8765", "http://127.0.0.1:8765/watch/ABC234"),
        ("ws://127.0.0.1:8765/", "http://127.0.0.1:8765/watch/ABC234"),
        ("wss://race.example.org", "https://race.example.org/watch/ABC234"),
        ("WSS://race.example.org/solrace/", "https://race.example.org/solrace/watch/ABC234"),
        ("ws://[::1]:9000/?x=1#top", "http://[::1]:9000/watch/ABC234"),
    ],
)
def test_the_link_is_the_server_address_over_http(server: str, link: str) -> None:
    assert watch_link(server, "ABC234") == link


@pytest.fixture
async def host(server_url: str) -> AsyncIterator[Terminal]:
    terminal = Terminal(server_url)
    yield terminal
    await terminal.close()


async def test_create_prints_the_watch_link_after_the_code(host: Terminal) -> None:
    settings = Settings(deal_number=4)
    host.start(
        lambda id_: CreateRoom(id=id_, variant="little-forty", name="Ada", settings=settings)
    )
    await host.wait_for("Watch it in a browser")
    share = next(i for i, line in enumerate(host.output) if line.startswith("Share the code"))
    code = host.output[share].split()[3].rstrip(":")
    link = host.output[share + 1].removeprefix("Watch it in a browser: ")
    assert re.fullmatch(rf"http://127\.0\.0\.1:\d+/watch/{code}", link)

    def fetch() -> tuple[int, str, bytes]:
        with urllib.request.urlopen(link, timeout=5) as response:
            return response.status, response.headers["Content-Type"], response.read()

    status, kind, body = await asyncio.to_thread(fetch)
    assert (status, kind) == (200, "text/html; charset=utf-8")
    assert b"static/watch.js" in body
