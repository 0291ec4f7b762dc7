"""Bots in the terminal client: ordinary protocol clients that race with what a player sees.

A bot is a `Session` like a person's, fed by `Bot.lines` instead of a
keyboard: each line is what its `bots.player.BotPlayer` decides from the
session's tracker, typed after the player's pause. While its connection is
down it waits (a move typed then would be queued, and the next refused). A
line the server refused as too many requests is sent again after a pause.
Its line source ends when the race is over, which ends the session, unless
the bot races again at each rematch (the bots seated for a host do). A bot
never signs in (its session has no account key) and takes its seat marked as
a bot (``bot=True`` and its level in the entry its callers build), so it is
never rated.

A strong bot's search runs on the event loop here: about a tenth of a second
of CPU per move in Little Milligan, half a second in Double Canfield 40.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

from bots.player import DEFAULT_SPEED, BotPlan, BotPlayer
from client_cli.room.tracker import Tracker
from client_cli.room.verify import check_race
from client_cli.session.session import Entry, Session, Write
from client_cli.words.render import render_ranking
from engine import find_variant
from protocol import Error, ErrorCode, Hint, ServerMessage

SLOWED_DOWN_PAUSE_S = 1.0
"""The wait before sending again what the server refused as too many requests."""

Sleep = Callable[[float], Awaitable[None]]

__all__ = ["DEFAULT_SPEED", "Bot", "BotPlan", "run_bot"]


class Bot:
    def __init__(self, session: Session, plan: BotPlan, sleep: Sleep = asyncio.sleep) -> None:
        self.session, self.plan, self.sleep = session, plan, sleep
        self.player = BotPlayer(plan)

    async def lines(self) -> AsyncIterator[str]:
        """What the bot types, one line at a time, until its race is over."""
        news = self.session.news
        while True:
            news.clear()
            line = None if self.session.reconnecting else self.next_line(self.session.tracker)
            if line == "":
                return
            if line is None:
                await news.wait()
                continue
            await self.sleep(self.player.pause_s(line))
            yield line
            if _slowed_down(self.session.last_reply):
                self.player.undo(line)
                await self.sleep(SLOWED_DOWN_PAUSE_S)

    def next_line(self, tracker: Tracker) -> str | None:
        """The line to type now; ``None`` to wait for news, ``""`` once the race is over."""
        reply = self.session.last_reply
        hint = reply if isinstance(reply, Hint) else None
        return self.player.next_line(tracker, hint)


def _slowed_down(reply: ServerMessage | None) -> bool:
    return isinstance(reply, Error) and reply.code == ErrorCode.PROTO_RATE_LIMITED


async def run_bot(
    server: str,
    entry: Entry,
    plan: BotPlan,
    write: Write,
    on_entry: Callable[[Tracker], None] | None = None,
) -> int:
    """Play one race as a bot (or every race, for a plan with rematches), then write
    its results; the exit status.

    ``on_entry`` hears the bot's tracker once it is in its room. When the bot
    fails, the last lines its session printed are written instead.
    """
    said: list[str] = []
    session = Session(server, said.append)
    entry_task = asyncio.create_task(_tell_entry(session, on_entry))
    try:
        status = await session.run(entry, Bot(session, plan).lines())
    finally:
        entry_task.cancel()
    results = session.tracker.results
    if status != 0 or results is None or session.tracker.room is None:
        for line in said[-3:]:
            write(line)
        return status or 1
    room = session.tracker.room
    write(render_ranking(results, find_variant(room.variant).total))
    settings = room.settings
    checks = check_race(results, room.variant, settings.deal_number, option=settings.rule_option)
    for line in checks:
        write(line)
    return 0


async def _tell_entry(session: Session, on_entry: Callable[[Tracker], None] | None) -> None:
    while session.tracker.code is None:
        session.news.clear()
        await session.news.wait()
    if on_entry is not None:
        on_entry(session.tracker)
