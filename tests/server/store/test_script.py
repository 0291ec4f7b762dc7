"""Scripts take their KEYS and ARGV by name, and touch no key they did not declare."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.asyncio.client import Monitor

from server.ops.embedded import EmbeddedValkey
from server.store import Store
from server.store._script import Call, Script
from tests.server.store._helpers import CODE, move, start

pytestmark = pytest.mark.every_backend

SCRIPT = Script(keys=("first", "second"), args=("value", "count"), body="return {OK}")
PREFIX = "contract:"


def test_bind_lays_values_out_in_the_declared_order() -> None:
    call = SCRIPT.bind(
        {"second": "k2", "first": "k1"}, {"count": 2, "value": b"v"}, ["k3"], [b"more"]
    )
    assert call == Call(SCRIPT, ["k1", "k2", "k3"], [b"v", 2, b"more"])


@pytest.mark.parametrize(
    ("keys", "args"),
    [
        ({"first": "k1"}, {"value": 1, "count": 2}),
        ({"first": "k1", "second": "k2", "third": "k3"}, {"value": 1, "count": 2}),
        ({"first": "k1", "other": "k2"}, {"value": 1, "count": 2}),
        ({"first": "k1", "second": "k2"}, {"value": 1, "number": 2}),
    ],
)
def test_bind_refuses_missing_or_unknown_names(keys: dict[str, str], args: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="expected"):
        SCRIPT.bind(keys, args)


def test_the_header_binds_each_name_to_its_slot() -> None:
    assert "local first, second = KEYS[1], KEYS[2]" in SCRIPT.source
    assert "local value, count = ARGV[1], ARGV[2]" in SCRIPT.source
    assert "local KEY_REST, ARG_REST = 2, 2" in SCRIPT.source


@pytest.fixture
async def monitored(
    private_valkey: EmbeddedValkey,
) -> AsyncIterator[tuple[Store, Callable[[], Awaitable[list[str]]]]]:
    """A store whose script calls are recorded, and a reader of what each one touched."""
    client = Redis.from_url(private_valkey.url)
    opened = await Store.connect(private_valkey.url, PREFIX, group_commit=False)
    async with opened as store, client.monitor() as monitor:
        yield store, lambda: _lua_commands(client, monitor)
    await client.aclose()


async def _lua_commands(client: Redis, monitor: Monitor) -> list[str]:
    """The commands scripts ran since the last call (a marker ends the window)."""
    marker = f"marker-{id(monitor)}-{asyncio.get_running_loop().time()}"
    await client.echo(marker)
    commands: list[str] = []
    while True:
        info = await asyncio.wait_for(monitor.next_command(), timeout=10)
        if marker in info["command"]:
            return commands
        if info["client_type"] == "lua":
            commands.append(info["command"])


def _touched(commands: Sequence[str]) -> set[str]:
    """Key names in the commands; a PUBLISH names a channel, not a key."""
    pattern = re.compile(re.escape(PREFIX) + r"\S+")
    names = set()
    for command in commands:
        if not command.upper().startswith("PUBLISH"):
            names.update(pattern.findall(command))
    return names


async def test_every_key_a_script_touches_is_in_its_keys(
    monitored: tuple[Store, Callable[[], Awaitable[list[str]]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, lua_commands = monitored
    calls: list[Call] = []
    run = store._runner.run

    async def recording(call: Call) -> Any:
        calls.append(call)
        return await run(call)

    monkeypatch.setattr(store._runner, "run", recording)
    await store.add_watcher(CODE)
    steps: list[Callable[[], Awaitable[object]]] = [
        lambda: start(store, seats=3),
        lambda: move(store, 0, 0, "m1"),
        lambda: move(store, 0, 0, "m1"),
        lambda: store.finish_player(CODE, 1, "resigned", 3_000, [b"resigned"]),
        lambda: store.save_room(CODE, 1, b"over", [b"over"]),
        lambda: store.expire_room(CODE, 600),
    ]
    await lua_commands()
    seen = 0
    for step in steps:
        first = len(calls)
        await step()
        touched = _touched(await lua_commands())
        declared = {key for call in calls[first:] for key in call.keys}
        assert touched <= declared, touched - declared
        seen += len(touched)
    assert seen > 20
    assert store.round_trips > len(steps)
