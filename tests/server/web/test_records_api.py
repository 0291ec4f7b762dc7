"""The JSON the profile and leaderboard pages read, over real HTTP from a real server.

The accounts are written into the test's Valkey as settled races leave them
(tests/server/web/_records.py); the server reads them through the account
requests' functions, as a client over the WebSocket would be told.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest

from protocol import HistoryEntry, LeaderboardRow, Profile
from server.app import RaceServer
from server.clock import ManualClock
from server.config import Config
from server.ops.embedded import EmbeddedValkey
from server.store import Store
from tests.server.web._http import get as _get
from tests.server.web._records import (
    ADA,
    ADA_BILLIE,
    ADA_FORTY,
    ADA_RACES,
    CREATED_MS,
    DAY_MS,
    MIN_RACES,
    RACE_MS,
    RIVALS,
    ZOE,
    Records,
    shown,
)

JSON_TYPE = "application/json; charset=utf-8"


async def _json(server: RaceServer, path: str) -> tuple[int, Any]:
    status, headers, body = await _get(server, path)
    assert headers["content-type"] == JSON_TYPE, path
    assert headers["content-length"] == str(len(body))
    return status, json.loads(body)


async def test_a_profile_is_the_accounts_ratings_races_and_best_times(
    race_server: RaceServer, records: Records
) -> None:
    status, body = await _json(race_server, f"/api/players/{ADA}")
    assert status == 200
    profile = Profile.model_validate_json(json.dumps(body))
    assert (profile.name, profile.created_ms) == (ADA, CREATED_MS)
    ratings = {r.variant: (r.rating, r.provisional, r.races) for r in profile.ratings}
    assert ratings == {
        "little-forty": (shown(*ADA_FORTY[:2]), False, ADA_FORTY[2]),
        "little-billie": (shown(*ADA_BILLIE[:2]), True, ADA_BILLIE[2]),
    }
    assert profile.recent == tuple(ADA_RACES)
    [best] = profile.best
    assert (best.variant, best.deal_number, best.elapsed_ms) == ("little-forty", 7, 95_000)
    assert best.at_ms == RACE_MS - 2 * DAY_MS


async def test_a_name_outside_ascii_is_found_by_its_percent_encoded_address(
    race_server: RaceServer, records: Records
) -> None:
    status, body = await _json(race_server, f"/api/players/{quote(ZOE)}")
    assert status == 200 and body["name"] == ZOE
    assert body["created_ms"] == CREATED_MS + DAY_MS
    assert body["recent"] == [] and len(body["best"]) == 1


async def test_an_accounts_races_come_a_page_at_a_time_newest_first(
    race_server: RaceServer, records: Records
) -> None:
    status, body = await _json(race_server, f"/api/players/{ADA}/races")
    assert status == 200
    assert set(body) == {"name", "races", "next_before"}
    races = [HistoryEntry.model_validate_json(json.dumps(race)) for race in body["races"]]
    assert (body["name"], races, body["next_before"]) == (ADA, ADA_RACES, None)
    _, first = await _json(race_server, f"/api/players/{ADA.lower()}/races?limit=2")
    assert [race["code"] for race in first["races"]] == ["RTD234", "PRC567"]
    assert first["next_before"] == 2
    _, rest = await _json(race_server, f"/api/players/{ADA}/races?before=2&limit=2")
    assert ([race["code"] for race in rest["races"]], rest["next_before"]) == (["PUB789"], None)
    _, billie = await _json(race_server, f"/api/players/{ADA}/races?game=little-billie")
    assert [race["code"] for race in billie["races"]] == ["PRC567"]


@pytest.mark.parametrize("name", ["Nobody", "ab", "x" * 40, "Ada%2FBob", "%E2%9C%93%E2%9C%93"])
@pytest.mark.parametrize("tail", ["", "/races"])
async def test_an_unknown_name_is_a_json_not_found(
    race_server: RaceServer, records: Records, name: str, tail: str
) -> None:
    status, body = await _json(race_server, f"/api/players/{name}{tail}")
    assert status == 404
    assert body["code"] == "account/not-found" and body["message"]


async def test_a_board_ranks_by_rating_in_pages(race_server: RaceServer, records: Records) -> None:
    status, body = await _json(race_server, "/api/leaderboard/little-forty")
    assert status == 200
    assert set(body) == {"variant", "deal_number", "rows", "total", "min_races"}
    assert (body["variant"], body["deal_number"], body["total"]) == ("little-forty", None, 26)
    assert body["min_races"] == MIN_RACES
    rows = [LeaderboardRow.model_validate_json(json.dumps(row)) for row in body["rows"]]
    assert len(rows) == 20
    assert [row.name for row in rows[:3]] == [ADA, ZOE, RIVALS[-1]]
    assert [row.place for row in rows] == list(range(1, 21))
    assert (rows[0].rating, rows[0].races, rows[0].provisional) == (1980, 12, False)
    ratings = [row.rating for row in rows if row.rating is not None]
    assert ratings == sorted(ratings, reverse=True) and len(ratings) == 20
    _, rest = await _json(race_server, "/api/leaderboard/little-forty?offset=20&limit=20")
    assert [row["place"] for row in rest["rows"]] == list(range(21, 27))
    assert [row["name"] for row in rest["rows"]] == RIVALS[5::-1]
    _, short = await _json(race_server, "/api/leaderboard/little-forty?offset=1&limit=2")
    assert [row["name"] for row in short["rows"]] == [ZOE, RIVALS[-1]]


async def test_a_deal_board_ranks_the_fastest_wins(
    race_server: RaceServer, records: Records
) -> None:
    status, body = await _json(race_server, "/api/leaderboard/little-forty?deal=7")
    assert status == 200
    assert (body["deal_number"], body["total"]) == (7, 2)
    assert [(r["place"], r["name"], r["elapsed_ms"]) for r in body["rows"]] == [
        (1, ZOE, 88_800),
        (2, ADA, 95_000),
    ]
    assert body["rows"][0]["at_ms"] == RACE_MS - 3 * DAY_MS
    _, other = await _json(race_server, "/api/leaderboard/little-forty?deal=8")
    assert (other["rows"], other["total"]) == ([], 0)
    _, empty = await _json(race_server, "/api/leaderboard/little-milligan")
    assert (empty["rows"], empty["total"]) == ([], 0)


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("/api/leaderboard/chess", "there is no game 'chess'"),
        ("/api/leaderboard/little-forty?deal=0", "deal must be a whole number"),
        ("/api/leaderboard/little-forty?deal=x", "deal must be a whole number"),
        ("/api/leaderboard/little-forty?deal=2147483649", "deal must be a whole number"),
        ("/api/leaderboard/little-forty?offset=-1", "offset must be a whole number"),
        ("/api/leaderboard/little-forty?limit=0", "limit must be a whole number"),
        ("/api/leaderboard/little-forty?limit=101", "limit must be a whole number"),
        ("/api/leaderboard/little-forty?limit=%EF%BC%92", "limit must be a whole number"),
        ("/api/leaderboard/little-forty?page=2", "unknown query field 'page': use deal,"),
        ("/api/players/Ada/races?game=chess", "there is no game 'chess'"),
        ("/api/players/Ada/races?before=-1", "before must be a whole number from 0 to 1000"),
        ("/api/players/Ada/races?limit=101", "limit must be a whole number from 1 to 100"),
        ("/api/players/Ada/races?deal=7", "unknown query field 'deal': use game,"),
        ("/api/players/Ada/races/old", "the JSON is at"),
        ("/api/", "no such JSON ''"),
        ("/api/players/Ada?game=little-forty", "unknown query field 'game': it takes none"),
        (f"/api/leaderboard/little-forty?offset={'9' * 5000}", "offset must be a whole number"),
        ("/api/leaderboard/little-forty?deal=1&deal=2", "'deal' is given more than once"),
        ("/api/leaderboard/little-forty?deal", "is not name=value pairs"),
        ("/api/leaderboard/", "the JSON is at"),
        ("/api/leaderboard/little-forty/7", "the JSON is at"),
        ("/api/players/", "the JSON is at"),
        ("/api/players/%FF%FE", "is not percent-encoded UTF-8"),
        ("/api/rooms/ABC234", "no such JSON 'rooms'"),
    ],
)
async def test_a_bad_request_is_a_json_bad_request(
    race_server: RaceServer, path: str, said: str
) -> None:
    status, body = await _json(race_server, path)
    assert status == 400, body
    assert body["code"] == "proto/invalid"
    assert said in body["message"], body["message"]


async def test_an_answer_is_checked_again_and_not_sent_again_unchanged(
    race_server: RaceServer, records: Records
) -> None:
    path = f"/api/players/{ADA}"
    status, headers, _ = await _get(race_server, path)
    assert (status, headers["cache-control"]) == (200, "no-cache")
    tag = headers["etag"]
    status, again, empty = await _get(race_server, path, If_None_Match=tag)
    assert (status, empty, again["etag"]) == (304, b"", tag)
    await records.race(ADA, ADA_RACES[0].model_copy(update={"race_no": 4}))
    status, changed, newer = await _get(race_server, path, If_None_Match=tag)
    assert status == 200 and changed["etag"] != tag
    assert json.loads(newer)["recent"][0]["race_no"] == 4
    status, headers, _ = await _get(race_server, "/api/players/Nobody")
    assert status == 404 and "etag" not in headers


async def test_a_store_that_cannot_answer_is_a_json_service_unavailable(
    private_valkey: EmbeddedValkey, clock: ManualClock
) -> None:
    store = await Store.connect(private_valkey.url, "solrace-test:", retries=0)
    async with RaceServer(Config(port=0), store, clock) as server:
        private_valkey.stop()
        for path in (f"/api/players/{ADA}", "/api/leaderboard/little-forty"):
            status, body = await _json(server, path)
            assert (status, body["code"]) == (503, "server/busy"), path
            assert body["message"] == "the store cannot answer now"


async def test_an_address_that_asks_too_often_waits(
    store: Store, clock: ManualClock, records: Records
) -> None:
    """Each answer reads the store: it spends one of the address's new connections."""
    config = Config(port=0, new_connections_per_s=1.0, new_connections_burst=2)
    async with RaceServer(config, store, clock) as server:
        for _ in range(2):
            assert (await _json(server, f"/api/players/{ADA}"))[0] == 200
        status, headers, body = await _get(server, "/api/leaderboard/little-forty")
        assert (status, headers["retry-after"]) == (429, "1")
        said = json.loads(body)
        assert said == {
            "code": "proto/rate-limited",
            "message": "too many requests from your address; retry in 1 s",
        }
        assert (await _get(server, "/watch/static/records.js"))[0] == 200, "files are not counted"
        clock.advance_to(clock.now_ms() + 1000)
        assert (await _json(server, "/api/leaderboard/little-forty"))[0] == 200
