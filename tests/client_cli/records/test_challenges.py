"""``solrace challenge CODE``, ``daily`` and ``daily --board``: the command line, the
standings as text, and a challenge raced in line mode against a real server, its
ghosts' progress told as news."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

from client_cli.__main__ import entry_request
from client_cli.args import parse_args
from client_cli.records import RecordOptions, run_records
from client_cli.records.desk import Desk
from protocol import JoinChallenge, RaceDaily
from server.app import RaceServer
from server.clock import ManualClock
from tests.client_cli._driver import Terminal, ready_and_go
from tests.server.requests._challenges import STEP_MS, made_challenge


def test_the_commands_enter_a_challenge_or_read_the_day() -> None:
    challenge = parse_args(["challenge", "ksj3fv", "--name", "Cid", "--plain"])
    assert entry_request(challenge)(4) == JoinChallenge(id=4, code="KSJ3FV", name="Cid")
    chosen = parse_args(["challenge", "KSJ3FV", "--name", "Cid", "--ghosts", "Ann, Bob"])
    expected = JoinChallenge(id=3, code="KSJ3FV", name="Cid", ghosts=("Ann", "Bob"))
    assert entry_request(chosen)(3) == expected
    daily = parse_args(["daily", "--name", "Cid"])
    assert entry_request(daily)(5) == RaceDaily(id=5, variant="little-forty", name="Cid")
    other = parse_args(["daily", "little-milligan", "--name", "Cid"])
    assert entry_request(other)(6) == RaceDaily(id=6, variant="little-milligan", name="Cid")
    assert parse_args(["daily", "--name", "Cid"]).records is None
    board = parse_args(["daily", "--board", "little-milligan", "--day", "2026-01-01"])
    assert board.records == RecordOptions(
        "daily", game="little-milligan", day="2026-01-01", json=False
    )


async def test_the_days_board_as_text_and_json(server_url: str, tmp_path: Path) -> None:
    out: list[str] = []
    desk = Desk(
        server_url, tmp_path / "accounts.json", None, out.append, out.append, None, None, UTC
    )
    assert await run_records(desk, RecordOptions("daily", game="little-forty")) == 0
    text = "\n".join(out)
    assert text.startswith("Deal of 2026-01-01, little-forty:")
    assert "Challenge daily:little-forty:2026-01-01 (open)" in text and "No runs yet." in text
    out.clear()
    assert await run_records(desk, RecordOptions("daily", game="little-forty", json=True)) == 0
    shown = json.loads(out[0])
    assert (shown["day"], shown["streak"], shown["challenge"]["seed"]) == ("2026-01-01", None, None)


async def test_a_challenge_raced_in_line_mode_tells_the_ghosts(
    race_server: RaceServer, server_url: str, clock: ManualClock
) -> None:
    made, over = await made_challenge(race_server, clock)
    terminal = Terminal(server_url)
    terminal.start(entry_request(parse_args(["challenge", made.challenge.code, "--name", "Cid"])))
    try:
        await terminal.wait_for("Type ready when you are")
        await ready_and_go(clock, terminal)
        await terminal.wait_for("Ghost Ann (guest) races along.")
        start = clock.now_ms()
        clock.advance_to(start + 3 * STEP_MS)
        await terminal.wait_for("Ghost Ann (guest) has 2 of 104 cards home after 3 moves.")
        clock.advance_to(start + over.ranking[0].elapsed_ms)
        await terminal.wait_for("Ghost Ann (guest) resigned with 2 cards home.")
    finally:
        await terminal.close()


async def test_challenge_typed_after_a_race_makes_one(server_url: str, clock: ManualClock) -> None:
    terminal = Terminal(server_url)
    options = parse_args(["create", "little-forty", "--name", "Ada", "--countdown", "1"])
    terminal.start(entry_request(options))
    try:
        await terminal.wait_for("Type ready when you are")
        early = await terminal.type("challenge", expect="challenge/not-raced")
        assert "refused" in early
        await ready_and_go(clock, terminal)
        await terminal.type("resign", expect="Race 1 results:")
        made = await terminal.type("challenge", expect="others race this deal")
        again = await terminal.type("challenge", expect="others race this deal")
    finally:
        await terminal.close()
    assert "Its key closes it early" in made and "solrace challenge " in made
    assert "Another racer made this race's challenge first" in again
