"""Server settings from the command line and the environment: workers and a shared port."""

from __future__ import annotations

import pytest

from server.config import parse_args


@pytest.fixture(autouse=True)
def _no_workers_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOLRACE_WORKERS", raising=False)


def test_one_process_by_default() -> None:
    config = parse_args([])
    assert (config.workers, config.reuse_port) == (1, False)


def test_workers_share_the_port() -> None:
    config = parse_args(["--workers", "3", "--port", "9000"])
    assert (config.workers, config.reuse_port) == (3, True)


def test_the_environment_sets_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOLRACE_WORKERS", "2")
    assert parse_args([]).workers == 2
    assert parse_args(["--workers", "1"]).workers == 1


def test_solver_work_is_set_from_the_command_line() -> None:
    config = parse_args(
        ["--analysis-workers", "2", "--verdict-budget", "3", "--dead-end-after", "45"]
    )
    assert (config.analysis_workers, config.verdict_budget_s, config.dead_end_after_s) == (
        2,
        3.0,
        45.0,
    )
    assert parse_args(["--hint-budget", "0.5"]).hint_budget_s == 0.5


def test_one_server_may_share_its_port() -> None:
    assert parse_args(["--reuse-port"]).reuse_port is True


@pytest.mark.parametrize(
    ("argv", "env", "said"),
    [
        (["--workers", "0"], "", "at least 1"),
        (["--analysis-workers", "-1"], "", "--analysis-workers must be at least 0"),
        (["--hint-budget", "0"], "", "--hint-budget must be above 0"),
        (["--workers", "2", "--port", "0"], "", "fixed --port"),
        ([], "many", "invalid int value"),
    ],
)
def test_bad_worker_settings_are_refused_with_a_reason(
    argv: list[str],
    env: str,
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if env:
        monkeypatch.setenv("SOLRACE_WORKERS", env)
    with pytest.raises(SystemExit):
        parse_args(argv)
    assert said in capsys.readouterr().err


def test_the_deadline_poll_is_a_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_args([]).deadline_poll_s == 1.0
    assert parse_args(["--deadline-poll", "0.25"]).deadline_poll_s == 0.25
    with pytest.raises(SystemExit):
        parse_args(["--deadline-poll", "0"])
    assert "more than 0" in capsys.readouterr().err


def test_the_presence_sweep_is_a_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_args([]).presence_sweep_s == 10.0
    assert parse_args(["--presence-sweep", "0.5"]).presence_sweep_s == 0.5
    with pytest.raises(SystemExit):
        parse_args(["--presence-sweep", "0"])
    assert "--presence-sweep must be more than 0" in capsys.readouterr().err


def test_limits_have_documented_defaults_and_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOLRACE_TRUSTED_PROXIES", raising=False)
    default = parse_args([])
    assert (default.max_connections_per_address, default.trusted_proxies) == (32, ())
    assert (default.new_connections_per_s, default.new_connections_burst) == (5.0, 32)
    assert (default.joins_per_minute, default.joins_burst) == (60.0, 30)
    assert (default.rate_per_s, default.rate_burst, default.frames_per_turn) == (20, 40, 4)
    flags = "--max-connections 8 --connection-rate 2 --connection-burst 4 --join-rate 12"
    flags += " --join-burst 3 --frames-per-turn 1 --request-rate 5 --request-burst 9"
    config = parse_args(flags.split())
    assert config.max_connections_per_address == 8
    assert (config.new_connections_per_s, config.new_connections_burst) == (2.0, 4)
    assert (config.joins_per_minute, config.joins_burst, config.frames_per_turn) == (12.0, 3, 1)
    assert (config.rate_per_s, config.rate_burst) == (5.0, 9.0)


def test_trusted_proxies_come_from_the_environment_and_the_flags(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SOLRACE_TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.7")
    config = parse_args(["--trusted-proxy", "2001:db8::/32"])
    assert config.trusted_proxies == ("10.0.0.0/8", "192.0.2.7", "2001:db8::/32")


@pytest.mark.parametrize(
    "argv",
    [["--trusted-proxy", "proxy.example"], ["--max-connections", "0"], ["--join-rate", "0"]],
)
def test_bad_limits_are_refused(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOLRACE_TRUSTED_PROXIES", raising=False)
    with pytest.raises(SystemExit):
        parse_args(argv)
