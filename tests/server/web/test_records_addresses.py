"""The profile and leaderboard pages' addresses: which paths serve them, with what
status, which lead to them, and the files they load (the pages themselves:
test_records_pages.py).
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from server.app import RaceServer
from tests.server.web._http import get, module_imports
from tests.server.web._records import ZOE

PAGE_TYPE = "text/html; charset=utf-8"


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/players/Ada", 200),
        (f"/players/{quote(ZOE)}", 200),
        ("/players/Nobody", 200),
        ("/leaderboard/little-forty", 200),
        ("/leaderboard/double-canfield-40?deal=3&page=2", 200),
        ("/leaderboard/chess", 404),
    ],
)
async def test_the_pages_are_served_for_any_name_and_a_clear_404_for_an_unknown_game(
    race_server: RaceServer, path: str, status: int
) -> None:
    got, headers, body = await get(race_server, path)
    assert got == status
    assert headers["content-type"] == PAGE_TYPE
    assert "script-src 'self'" in headers["content-security-policy"]
    assert b'<script type="module" src="../watch/static/' in body
    assert b"<script>" not in body, "no inline script: the policy forbids it"


@pytest.mark.parametrize(
    ("path", "entry"),
    [("/players/Ada", "profile.js"), ("/leaderboard/little-forty", "leaderboard.js")],
)
async def test_a_page_asks_for_every_module_it_imports_at_once(
    race_server: RaceServer, path: str, entry: str
) -> None:
    _, _, page = await get(race_server, path)
    links = r'<link rel="modulepreload" href="\.\./watch/static/([^"]+)">'
    preloaded = set(re.findall(links, page.decode()))
    imported: set[str] = set()
    wanted = {entry}
    while wanted - imported:
        name = sorted(wanted - imported)[0]
        imported.add(name)
        status, headers, body = await get(race_server, f"/watch/static/{name}")
        assert (status, headers["content-type"]) == (200, "text/javascript; charset=utf-8")
        wanted |= module_imports(name, body.decode())
    assert preloaded == imported - {entry} != set()
    for sheet in re.findall(r'href="\.\./watch/static/([^"]+\.(?:css|svg))"', page.decode()):
        assert (await get(race_server, f"/watch/static/{sheet}"))[0] == 200, sheet


@pytest.mark.parametrize(
    ("path", "location"),
    [
        ("/leaderboard", "leaderboard/little-forty"),
        ("/leaderboard/", "little-forty"),
        ("/leaderboard/little-forty/", "../little-forty"),
        ("/players/Ada/", "../Ada"),
    ],
)
async def test_short_addresses_lead_to_the_pages(
    race_server: RaceServer, path: str, location: str
) -> None:
    status, headers, _ = await get(race_server, path)
    assert (status, headers["location"]) == (302, location)


@pytest.mark.parametrize(
    "path",
    ["/players", "/players/", "/players/Ada/races", "/watch/static/players.html", "/api"],
)
async def test_other_addresses_are_not_found(race_server: RaceServer, path: str) -> None:
    status, _, body = await get(race_server, path)
    assert status == 404 and body.startswith(b"solrace: ")
