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


def test_one_server_may_share_its_port() -> None:
    assert parse_args(["--reuse-port"]).reuse_port is True


@pytest.mark.parametrize(
    ("argv", "env", "said"),
    [
        (["--workers", "0"], "", "at least 1"),
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
