"""``solrace challenge create [ROOM]`` against a real server: a race the player left
before its end made a challenge from the seat saved for it; a watcher's seat and a
seat the server does not know are refused, saying why."""

from __future__ import annotations

from pathlib import Path

import pytest

from client_cli.__main__ import entry_request, run
from client_cli.args import parse_args
from client_cli.records import RecordOptions
from client_cli.session import saved_seats
from protocol import GetChallenge, Settings, decode_server
from server.app import RaceServer
from server.clock import ManualClock
from tests.client_cli._driver import Terminal, ready_and_go
from tests.server._client import Client
from tests.server._players import pin_secrets
from tests.server.conftest import opened_clients
from tests.server.requests._challenges import SEED, finished_race


def test_create_takes_a_room_and_days_and_a_code_takes_no_room(
    capsys: pytest.CaptureFixture[str],
) -> None:
    made = parse_args(["challenge", "create", "abc234", "--days", "3"])
    assert made.records == RecordOptions("challenge", room="ABC234", days=3)
    only = parse_args(["--server", "ws://h:1", "challenge", "create"])
    assert only.records == RecordOptions("challenge", server="ws://h:1")
    assert parse_args(["challenge", "CREATE", "--name", "Cid"]).code == "CREATE"
    with pytest.raises(SystemExit):
        parse_args(["challenge", "KSJ3FV", "ABC234"])
    assert "challenge CODE takes no ROOM" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_args(["challenge", "create", "--days", "31"])


async def test_a_race_left_before_its_end_is_made_a_challenge_from_its_saved_seat(
    race_server: RaceServer,
    server_url: str,
    clock: ManualClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pin_secrets(race_server, SEED)
    seats, accounts_file = tmp_path / "rooms", tmp_path / "accounts.json"
    async with opened_clients(Client.open, race_server) as open_:
        race, _ = await finished_race(open_, clock)
        replies = [decode_server(frame) for frame in race.racers[1].client.frames]
        token = next(reply.token for reply in replies if reply.type == "joined")
        saved_seats.save(seats, saved_seats.SavedSeat(server_url, race.code, token, 1))
        saved_seats.save(seats, saved_seats.SavedSeat(server_url, "WATCH2", "w" * 32, None))
        watched = parse_args(["challenge", "create", "WATCH2"])
        assert await run(watched, seats, accounts_file) == 1
        assert "You watched room WATCH2" in capsys.readouterr().err
        options = parse_args(["challenge", "create", race.code, "--days", "2"])
        assert await run(options, seats, accounts_file) == 0
        said = capsys.readouterr().out
        code = said.split()[1].rstrip(":")
        assert f"solrace challenge {code}" in said and "Its key closes it early" in said
        assert f"Or in a browser: http://127.0.0.1:{race_server.port}/challenge/{code}" in said
        shown = await race.racers[0].client.call(GetChallenge, code=code)
        assert [run_.name for run_ in shown.challenge.runs] == ["Ann", "Bob"]
        assert shown.challenge.closes_at_ms == clock.now_ms() + 2 * 24 * 3600 * 1000


async def test_a_seat_the_server_does_not_know_is_refused_with_its_code(
    server_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = tmp_path / "rooms"
    saved_seats.save(seats, saved_seats.SavedSeat(server_url, "GXNE22", "t" * 32, 0))
    options = parse_args(["challenge", "create"])
    assert await run(options, seats, tmp_path / "accounts.json") == 1
    assert "(challenge/" in capsys.readouterr().err
    empty = tmp_path / "none"
    assert await run(options, empty, tmp_path / "accounts.json") == 1
    assert "No saved seat to resume" in capsys.readouterr().err


async def test_a_player_who_quit_mid_race_makes_it_a_challenge_once_it_is_over(
    server_url: str, clock: ManualClock, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = tmp_path / "rooms"
    ann, bob = Terminal(server_url), Terminal(server_url, seats)
    ann.start(entry_request(parse_args(["create", "little-forty", "--name", "Ann"])))
    try:
        await ann.wait_for("Type ready when you are")
        code = ann.session.tracker.code
        assert code is not None
        bob.start(entry_request(parse_args(["join", code, "--name", "Bob"])))
        await bob.wait_for("Type ready when you are")
        await ann.type("ready", expect="ready")
        await ready_and_go(clock, bob, ann, countdown_s=Settings().countdown_s)
        assert await bob.quit() == 0
        assert [saved.code for saved in saved_seats.load_all(seats)] == [code]
        early = parse_args(["--server", server_url, "challenge", "create"])
        assert await run(early, seats, tmp_path / "accounts.json") == 1
        assert "(challenge/not-raced)" in capsys.readouterr().err
        await ann.type("resign", expect="resigned")
        clock.advance(Settings().time_limit_s * 1000)
        await ann.wait_for("Race 1 results:")
    finally:
        await ann.close()
        await bob.close()
    assert await run(early, seats, tmp_path / "accounts.json") == 0
    assert "others race this deal against your runs" in capsys.readouterr().out
