"""``solrace-server solve``: deal ranges, the table and the JSON lines."""

import json

import pytest

from engine import Outcome, outcome, replay
from server.__main__ import main as server_main
from server.ops import solve_cmd


def test_a_range_includes_both_ends() -> None:
    assert solve_cmd.parse_range("3..5") == range(3, 6)
    assert solve_cmd.parse_range("7") == range(7, 8)


@pytest.mark.parametrize("text", ["5..3", "a..b", "1..", "-2..4"])
def test_a_bad_range_is_refused_with_a_clear_error(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        solve_cmd.main(["--game", "little-forty", f"--seeds={text}"])
    assert "A..B" in capsys.readouterr().err


def test_an_unknown_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        solve_cmd.main(["--game", "klondike", "--seeds", "1..2"])
    assert "invalid choice" in capsys.readouterr().err


def test_json_lines_carry_a_winning_line_that_replays(capsys: pytest.CaptureFixture[str]) -> None:
    assert solve_cmd.main(["--game", "little-milligan", "--seeds", "4..5", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["deal"] for line in lines] == [4, 5]
    for line in lines:
        assert set(line) == {"deal", "verdict", "moves", "seconds"}
        assert line["verdict"] == "won"
        state = replay("little-milligan", solve_cmd.public_seed(line["deal"]), line["moves"])
        assert outcome(state) == Outcome.WON


def test_the_table_lists_each_deal_and_the_shares(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        server_main(["solve", "--game", "little-billie", "--seeds", "3..3", "--budget", "5"])
    assert done.value.code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:2] == ["3", "unwinnable"]
    assert out[-1] == "1 deals: won 0 (0.0%), unwinnable 1 (100.0%), undecided 0 (0.0%)"


def test_deals_solved_in_worker_processes_come_back_in_order() -> None:
    results = list(solve_cmd.solve_deals("little-billie", [7, 3], 5.0, jobs=2))
    assert [(r.deal, r.verdict) for r in results] == [(7, "unwinnable"), (3, "unwinnable")]
