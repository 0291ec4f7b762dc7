"""The embedded Valkey: it answers, keeps data across restarts, and leaves no process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from server.ops.embedded import DataDirInUse, EmbeddedValkey, _running, running_url


def server_pid(url: str) -> int:
    with redis.Redis.from_url(url) as client:
        pid: int = client.info("server")["process_id"]
        return pid


def is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_serves_with_an_append_only_file(private_valkey: EmbeddedValkey) -> None:
    with redis.Redis.from_url(private_valkey.url) as client:
        assert client.ping()
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        assert client.config_get("appendfsync") == {"appendfsync": "everysec"}
        assert client.config_get("dir")["dir"] == str(private_valkey.data_dir.resolve())


def test_a_running_valkey_is_found_by_its_data_directory(
    private_valkey: EmbeddedValkey, tmp_path: Path
) -> None:
    assert running_url(private_valkey.data_dir) == private_valkey.url
    assert running_url(tmp_path / "elsewhere") is None
    private_valkey.stop()
    assert running_url(private_valkey.data_dir) is None


def test_stop_ends_the_process_and_is_repeatable(tmp_path: Path) -> None:
    valkey = EmbeddedValkey(tmp_path)
    pid = server_pid(valkey.start())
    assert valkey.running
    valkey.stop()
    valkey.stop()
    assert not valkey.running
    assert not is_alive(pid)


def test_data_survives_a_restart(tmp_path: Path) -> None:
    valkey = EmbeddedValkey(tmp_path)
    url = valkey.start()
    with redis.Redis.from_url(url) as client:
        client.set("room", b"kept")
    valkey.stop()
    assert valkey.start() == url
    with redis.Redis.from_url(url) as client:
        assert client.get("room") == b"kept"
    valkey.stop()

    again = EmbeddedValkey(tmp_path)
    with redis.Redis.from_url(again.start()) as client:
        assert client.get("room") == b"kept"
    again.stop()


async def test_async_context_stops_on_error(tmp_path: Path) -> None:
    pid = 0
    with pytest.raises(RuntimeError, match="boom"):
        async with EmbeddedValkey(tmp_path) as valkey:
            pid = server_pid(valkey.url)
            raise RuntimeError("boom")
    assert pid
    assert not is_alive(pid)


def test_interpreter_exit_without_stop_leaves_no_process(tmp_path: Path) -> None:
    script = (
        "import sys, redis\n"
        "from server.ops.embedded import EmbeddedValkey\n"
        "url = EmbeddedValkey(__import__('pathlib').Path(sys.argv[1])).start()\n"
        "print(redis.Redis.from_url(url).info('server')['process_id'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=Path(__file__).parents[3],
    )
    assert not is_alive(int(done.stdout))


def test_a_valkey_left_by_a_killed_parent_is_stopped_before_starting_again(
    tmp_path: Path,
) -> None:
    """SIGKILL gives the parent no chance to stop its Valkey; the next start on the
    same directory shuts the leftover down, and its data is still there."""
    script = (
        "import sys, time, redis\n"
        "from server.ops.embedded import EmbeddedValkey\n"
        "url = EmbeddedValkey(__import__('pathlib').Path(sys.argv[1])).start()\n"
        "client = redis.Redis.from_url(url)\n"
        "client.set('kept', 'yes')\n"
        "print(client.info('server')['process_id'], flush=True)\n"
        "time.sleep(60)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[3],
    )
    assert parent.stdout is not None
    leftover = int(parent.stdout.readline())
    parent.kill()
    parent.wait(timeout=10)
    parent.stdout.close()
    assert _running(leftover)
    valkey = EmbeddedValkey(tmp_path)
    try:
        url = valkey.start()
        assert not _running(leftover)
        assert server_pid(url) != leftover
        with redis.Redis.from_url(url) as client:
            assert client.get("kept") == b"yes"
    finally:
        valkey.stop()


def test_a_second_start_on_a_directory_in_use_is_refused_and_the_first_keeps_serving(
    private_valkey: EmbeddedValkey,
) -> None:
    second = EmbeddedValkey(private_valkey.data_dir)
    with pytest.raises(DataDirInUse, match=rf"pid {os.getpid()}\)"):
        second.start()
    assert not second.running
    with redis.Redis.from_url(private_valkey.url) as client:
        assert client.ping()
    private_valkey.stop()
    try:
        with redis.Redis.from_url(second.start()) as client:
            assert client.ping()
    finally:
        second.stop()


def test_a_server_on_a_directory_in_use_exits_with_a_clear_error(
    private_valkey: EmbeddedValkey,
) -> None:
    """The second ``solrace-server`` says why it cannot start and leaves the first alone."""
    command = [sys.executable, "-m", "server", "--port", "0", "--data-dir"]
    done = subprocess.run(
        [*command, str(private_valkey.data_dir)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=Path(__file__).parents[3],
    )
    assert done.returncode == 1
    assert "is using the data directory" in done.stderr
    assert "--data-dir of its own" in done.stderr
    assert "Traceback" not in done.stderr
    with redis.Redis.from_url(private_valkey.url) as client:
        assert client.ping()
