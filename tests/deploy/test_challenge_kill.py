"""A challenge run through a killed server process: the process the challenger raced on
is killed (SIGKILL) mid-race; the other process plays the ghosts on from the store's
deadlines while nobody is connected, the challenger resumes there, and every ghost
step was shown once, at its recorded race time, no acknowledged move was lost, and
the account's run was added to the challenge's standings once.

The original race is on a pinned public deal whose greedy line brings cards home at
its first, fourth and ninth move, so its ghost has steps before and after the kill.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from protocol import (
    CreateAccount,
    CreateChallenge,
    CreateRoom,
    EventFrame,
    GetChallenge,
    JoinChallenge,
    MakeMove,
    RaceOver,
    Ready,
    Resign,
    Resume,
    Settings,
)
from server.ops.embedded import EmbeddedValkey
from tests.deploy.conftest import Clients, StartServers
from tests.server._client import Client
from tests.server._players import greedy_line
from tests.server.race_flow._ghosts import expected_steps

GAME = "little-forty"
DEAL = 4
SEED = b"deal:%d" % DEAL
LINE = greedy_line(GAME, SEED)
ORIGINAL_MOVES = 9
MOVE_GAP_S = 0.5
"""Between the original racer's moves: its ghost's steps are this far apart or more."""

Step = tuple[int, int, int, str]
"""A ghost step: race time, cards home, moves, outcome."""


def _url(port: int) -> str:
    return f"ws://127.0.0.1:{port}"


async def _original_race(ann: Client) -> RaceOver:
    """Ann races the deal alone: the greedy line's first moves a gap apart, then resigns."""
    settings = Settings(countdown_s=1, deal_number=DEAL)
    created = await ann.call(CreateRoom, variant=GAME, name="Ann", settings=settings)
    assert created.type == "joined", created
    assert (await ann.call(Ready, ready=True)).type == "ok"
    await ann.wait_event("race_started")
    for version, text in enumerate(LINE[:ORIGINAL_MOVES]):
        await asyncio.sleep(MOVE_GAP_S)
        reply = await ann.call(MakeMove, move=text, move_id=f"a{version}", expected_version=version)
        assert reply.type == "move_ok", reply
    assert (await ann.call(Resign)).type == "ok"
    over: RaceOver = await ann.wait_event("race_over")
    return over


def _steps(over: RaceOver) -> list[Step]:
    """Ann's run as its ghost shows it: race time 0, each change of cards home, the end."""
    return [(at, home, moves, end) for at, _, home, moves, end in expected_steps(over, SEED)]


def _ghost_steps(events: list[Any], start_ms: int) -> list[Step]:
    return [(e.at_ms - start_ms, e.progress, e.moves, e.outcome) for e in events]


async def test_a_challenge_run_survives_a_killed_server_process(
    embedded_valkey: EmbeddedValkey, start_servers: StartServers, clients: Clients
) -> None:
    prefix = f"solrace-test:{uuid.uuid4().hex}:"
    options = ("--redis", embedded_valkey.url, "--prefix", prefix)
    timers = ("--presence-sweep", "1", "--deadline-poll", "0.2")
    (killed, killed_port), (_, staying_port) = await asyncio.to_thread(
        start_servers, 2, *options, *timers
    )
    ann = await clients.open(staying_port)
    over = await _original_race(ann)
    made = await ann.call(CreateChallenge)
    assert made.type == "challenge_created", made
    code, steps = made.challenge.code, _steps(over)
    assert len(steps) == 5, steps

    cid = await clients.open(killed_port)
    assert (await cid.call(CreateAccount, name="Cid")).type == "account_created"
    joined = await cid.call(JoinChallenge, code=code, name="Cid")
    assert joined.type == "joined", joined
    assert (await cid.call(Ready, ready=True)).type == "ok"
    started = await cid.wait_event("race_started")
    start_ms = started.start_at_ms
    acked: list[str] = []
    for version, text in enumerate(LINE[:2]):
        reply = await cid.call(MakeMove, move=text, move_id=f"c{version}", expected_version=version)
        assert reply.type == "move_ok", reply
        acked.append(f"c{version}")
    await cid.wait_event("ghost_progress", lambda e: e.moves == 1)  # its second step
    before = cid.events("ghost_progress")
    assert 2 <= len(before) < len(steps)
    seen_seqs = cid.seqs()

    await asyncio.to_thread(killed.kill)
    # Nobody is connected to the room now: the other process plays the ghosts on from
    # the store's deadline set. Come back once the last step is due.
    wait_s = (start_ms + steps[-1][0]) / 1000 - time.time() + 1.0
    await asyncio.sleep(max(0.0, wait_s))
    back = await clients.open(staying_port)
    resumed = await back.call(Resume, token=joined.token, last_seq=max(seen_seqs))
    assert resumed.type == "resumed" and resumed.version == len(acked), resumed
    last = steps[-1]
    await back.wait_event("ghost_progress", lambda e: e.outcome != "playing", timeout=30)
    after = back.events("ghost_progress")
    frames = [m for m in back.pushed if isinstance(m, EventFrame)]
    ghost_seqs = [m.seq for m in frames if m.event.type == "ghost_progress"]
    assert max(ghost_seqs) <= resumed.seq  # played while nobody was connected: missed events
    assert _ghost_steps(before, start_ms) + _ghost_steps(after, start_ms) == steps
    assert _ghost_steps(after, start_ms)[-1] == last

    for version, text in enumerate(LINE[2:4], start=2):
        reply = await back.call(
            MakeMove, move=text, move_id=f"c{version}", expected_version=version
        )
        assert reply.type == "move_ok", reply
        acked.append(f"c{version}")
    assert (await back.call(Resign)).type == "ok"
    ended: RaceOver = await back.wait_event("race_over")
    assert [entry.move_id for entry in ended.ranking[0].log] == acked
    seqs = seen_seqs + back.seqs()
    assert seqs == list(range(seqs[0], seqs[-1] + 1))

    async def ranked_runs() -> int:
        shown = await back.call(GetChallenge, code=code)
        return int(shown.challenge.total_runs)

    async with asyncio.timeout(30):
        while await ranked_runs() == 1:
            await asyncio.sleep(0.1)
    shown = (await back.call(GetChallenge, code=code)).challenge
    assert (shown.total_runs, shown.practice_runs) == (2, 0)
    assert sorted(run.name for run in shown.runs) == ["Ann", "Cid"]
