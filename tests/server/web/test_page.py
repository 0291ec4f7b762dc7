"""The spectator page's HTTP side: routes, content types, caching, refusals.

Every request goes to a real server over a plain socket, the way a browser
sends it; the page's behaviour in a browser is in test_watch_page.py.
"""

from __future__ import annotations

import re

import pytest

from server.app import RaceServer
from server.web.page import asset
from tests.server.web._http import get as _get
from tests.server.web._http import module_imports

PAGE_TYPE = "text/html; charset=utf-8"


def _page_files(html: str) -> set[str]:
    return set(re.findall(r'(?:href|src)="static/([^"]+)"', html))


async def test_the_page_is_served_for_a_room_code_and_for_the_code_box(
    race_server: RaceServer,
) -> None:
    status, headers, body = await _get(race_server, "/watch/ABC234")
    assert status == 200
    assert headers["content-type"] == PAGE_TYPE
    assert headers["cache-control"] == "no-cache"
    assert headers["content-length"] == str(len(body))
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert b'<script type="module" src="static/watch.js">' in body
    box_status, box_headers, box_body = await _get(race_server, "/watch/")
    assert (box_status, box_headers["etag"], box_body) == (200, headers["etag"], body)


async def test_every_file_the_page_loads_is_served_with_its_type(race_server: RaceServer) -> None:
    _, _, page = await _get(race_server, "/watch/ABC234")
    wanted = _page_files(page.decode())
    assert {"watch.js", "watch.css", "icon.svg"} <= wanted
    seen: set[str] = set()
    script = "text/javascript; charset=utf-8"
    types = {"js": script, "mjs": script, "css": "text/css; charset=utf-8", "svg": "image/svg+xml"}
    while wanted - seen:
        name = sorted(wanted - seen)[0]
        seen.add(name)
        status, headers, body = await _get(race_server, f"/watch/static/{name}")
        assert status == 200, name
        assert headers["content-type"] == types[name.rsplit(".", 1)[1]], name
        assert headers["etag"].startswith('"') and headers["cache-control"] == "no-cache"
        if name.endswith((".js", ".mjs")):
            wanted |= module_imports(name, body.decode())
    assert {
        "msgpack.js",
        "board.js",
        "seed.js",
        "room.js",
        "link.js",
        "view.js",
        "words.js",
    } <= seen


async def test_the_page_asks_for_every_module_at_once(race_server: RaceServer) -> None:
    """On a slow link each level of imports would cost a round trip: the page lists
    every module it imports, however deep, for the browser to fetch at once."""
    _, _, page = await _get(race_server, "/watch/ABC234")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="static/([^"]+)">', page.decode()))
    imported: set[str] = set()
    wanted = {"watch.js"}
    while wanted - imported:
        name = sorted(wanted - imported)[0]
        imported.add(name)
        _, _, body = await _get(race_server, f"/watch/static/{name}")
        wanted |= module_imports(name, body.decode())
    assert preloaded == imported - {"watch.js"}


async def test_a_known_version_is_not_sent_again(race_server: RaceServer) -> None:
    _, headers, _ = await _get(race_server, "/watch/static/watch.js")
    tag = headers["etag"]
    status, again, body = await _get(race_server, "/watch/static/watch.js", If_None_Match=tag)
    assert (status, body, again["etag"]) == (304, b"", tag)
    status, _, body = await _get(race_server, "/watch/static/watch.js", If_None_Match='"old"')
    assert status == 200 and body.startswith(b"//")
    status, _, body = await _get(race_server, "/watch/ABC234", If_None_Match=f'"x", W/{tag}')
    assert status == 200 and body


@pytest.mark.parametrize(
    ("path", "location"),
    [
        ("/", "play/"),
        ("/play", "play/"),
        ("/watch", "watch/"),
        ("/watch/abc234", "ABC234"),
        ("/play/abc234", "ABC234"),
        ("/play/ABC234/", "../ABC234"),
        ("/?x=1", "play/"),
        ("/watch/ABC234/", "../ABC234"),
        ("/watch/abc234/", "../ABC234"),
    ],
)
async def test_short_and_lower_case_addresses_lead_to_the_page(
    race_server: RaceServer, path: str, location: str
) -> None:
    status, headers, _ = await _get(race_server, path)
    assert (status, headers["location"]) == (302, location)


@pytest.mark.parametrize("code", ["ABC23", "ABC2345", "ABC2I4", "ABC2O4", "ABC204", "AB%20234"])
async def test_a_code_not_of_the_room_code_format_is_not_found(
    race_server: RaceServer, code: str
) -> None:
    status, headers, body = await _get(race_server, f"/watch/{code}")
    assert status == 404
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert b"is not a room code: a code is 6 characters of ABCDEFGHJKLMNPQRSTUVWXYZ23456789" in body


@pytest.mark.parametrize(
    "path",
    [
        "/nowhere",
        "/watch/static/nope.js",
        "/watch/static/../web.py",
        "/watch/static/%2e%2e/web.py",
        "/watch/static/watch.html",
        "/watch/static/",
        "/watch/ABC234/extra",
        "/static/watch.js",
        "/watch/static/vendor/fetch.sh",
        "/watch/static/vendor/msgpack/package.json",
        "/watch/static/vendor//msgpack/Decoder.mjs",
        "/watch/static/vendor/msgpack/../../web.py",
        "/watch/static/LICENSE",
    ],
)
async def test_other_paths_are_not_found(race_server: RaceServer, path: str) -> None:
    status, _, body = await _get(race_server, path)
    assert status == 404
    assert body.startswith(b"solrace: ")


def test_the_page_files_ship_inside_the_package() -> None:
    for name in ("watch.html", "watch.css", "watch.js", "msgpack.js", "icon.svg"):
        found = asset(name)
        assert found is not None and found.body, name
    assert asset("web.py") is None
    assert asset("../web.py") is None
    assert asset(".hidden.js") is None


async def test_the_libraries_are_served_with_their_licences(race_server: RaceServer) -> None:
    for folder in ("msgpack", "noble-hashes"):
        status, headers, body = await _get(race_server, f"/watch/static/vendor/{folder}/LICENSE")
        assert status == 200 and headers["content-type"] == "text/plain; charset=utf-8", folder
        assert b"Permission" in body, folder
    assert asset("vendor/msgpack/Decoder.mjs") is not None
    assert asset("vendor/msgpack/utils/utf8.mjs") is not None


async def test_the_play_page_is_served_for_a_room_code_and_for_the_create_form(
    race_server: RaceServer,
) -> None:
    status, headers, body = await _get(race_server, "/play/ABC234")
    assert status == 200
    assert headers["content-type"] == PAGE_TYPE
    assert "script-src 'self'" in headers["content-security-policy"]
    assert b'<script type="module" src="../watch/static/play.js">' in body
    assert b"<script>" not in body and b" on" + b"click=" not in body
    form_status, form_headers, form_body = await _get(race_server, "/play/")
    assert (form_status, form_headers["etag"], form_body) == (200, headers["etag"], body)
    status, _, _ = await _get(race_server, "/watch/static/play.html")
    assert status == 404


async def test_the_play_page_asks_for_every_module_at_once(race_server: RaceServer) -> None:
    _, _, page = await _get(race_server, "/play/ABC234")
    preloaded = set(
        re.findall(r'<link rel="modulepreload" href="../watch/static/([^"]+)">', page.decode())
    )
    imported: set[str] = set()
    wanted = {"play.js"}
    while wanted - imported:
        name = sorted(wanted - imported)[0]
        imported.add(name)
        status, _, body = await _get(race_server, f"/watch/static/{name}")
        assert status == 200, name
        wanted |= module_imports(name, body.decode())
    assert preloaded == imported - {"play.js"}
    for name in ("watch.css", "play.css", "icon.svg"):
        assert (await _get(race_server, f"/watch/static/{name}"))[0] == 200


async def test_a_challenge_and_a_daily_deal_are_the_play_page(race_server: RaceServer) -> None:
    _, play_headers, play = await _get(race_server, "/play/")
    for path in ("/challenge/ABC234", "/daily/little-forty", "/daily/double-canfield-40"):
        status, headers, body = await _get(race_server, path)
        assert (status, headers["etag"], body) == (200, play_headers["etag"], play), path
    status, headers, _ = await _get(race_server, "/challenge/abc234")
    assert (status, headers["location"]) == (302, "ABC234")
    for path, says in (
        ("/daily/klondike", b"no game 'klondike'; the games are little-forty"),
        ("/challenge/", b"no such page"),
        ("/challenge/ABC2I4", b"is not a room code"),
    ):
        status, _, body = await _get(race_server, path)
        assert status == 404 and says in body, path
