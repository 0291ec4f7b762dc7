"""A house bot's decisions off the event loop: in a worker process they are the
same as in a thread, and the player comes back with its new state."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from bots.house.decide import Decider
from bots.player import BotPlan, BotPlayer, Sight
from tests.client_cli._samples import board, room

BOARD = board("little-milligan", b"deal:2")


def _racing() -> Sight:
    lobby = room(variant="little-milligan")
    racing = lobby.model_copy(update={"phase": "racing", "start_at_ms": 0})
    return Sight(racing, 1, BOARD, 0, None)


async def _two_lines(decide: Decider, level: str) -> tuple[list[str | None], BotPlayer]:
    player = BotPlayer(BotPlan("Bot", seed=3, level=level))  # type: ignore[arg-type]
    lines = []
    for _ in range(2):
        player, line = await decide(player, _racing(), None)
        lines.append(line)
    return lines, player


async def test_a_search_in_a_worker_process_decides_as_one_in_a_thread() -> None:
    in_thread, threaded = await _two_lines(Decider(), "strong")
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        in_process, pooled = await _two_lines(Decider(pool), "strong")
        good, _ = await _two_lines(Decider(pool), "good")
    assert good == (await _two_lines(Decider(), "good"))[0]
    assert in_process == in_thread and in_thread[0] != in_thread[1]
    assert None not in in_thread
    assert pooled.tried == threaded.tried and len(pooled.tried) == 2
    assert pooled.rng.getstate() == threaded.rng.getstate()
