"""The bots a host's client seats in its room, racing again at each rematch, and
brought back with the host's seat when the host resumes it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

from bots.levels import Level, level_name
from bots.strategy import DEFAULT_STRATEGY
from client_cli.bots.runner import BotPlan, run_bot
from client_cli.room.tracker import Tracker
from client_cli.session.saved_seats import SavedSeat
from client_cli.session.seat_keeper import Team
from client_cli.session.session import Entry, Session, Write
from protocol import AddBot, JoinRoom, Ok, Resume

_T = TypeVar("_T")

FIELD: tuple[Level, ...] = ("casual", "good")
"""The levels of a room's bots when none is asked for, Bot 1 first; the last one
repeats for more bots: a newcomer can race them and sometimes win."""


class BotTeam:
    """Bots seated in a room the host creates, racing again at each rematch.

    Each bot is asked of the server first, as a house bot (`add_bot`): the
    server's bot process plays it, and it stays when the host leaves. Where the
    server will not (it runs no house bots, or has no room for more), this
    client runs the bots itself, and says so.

    Lines the host types are held back (`hold`) until every bot has its seat
    (or has failed to take it), so the host cannot start the race alone by
    saying ready first. Used as an async context manager: the bots stop when
    the host's session ends.

    The bots' tokens go into the host's saved seat, so a host who resumes
    a saved seat brings its bots back (`bring_back`): once the host is back
    in the room (and so keeps the host role), each bot resumes its seat and
    plays on; a bot whose seat is gone takes a new one if the room is in its
    lobby. The host's keys wait for them the same way, so a rematch called at
    once does not leave the bots out.
    """

    def __init__(
        self,
        host: Session,
        count: int,
        speed: float,
        write: Write,
        ready_hint: str = "Type ready when you are.",
        *,
        level: Level | None = None,
    ) -> None:
        self.host, self.count, self.speed, self.write = host, count, speed, write
        self.level = level
        """Every bot's level; ``None``: the `FIELD`, a field a newcomer can race."""
        self.ready_hint = ready_hint
        self.seated = asyncio.Event()
        self.entered = 0
        self.failed = 0
        self.tokens: dict[int, str] = {}
        """Each bot's resume token, by bot number."""
        self.returning = False
        """The bots resume seats saved with the host's, instead of taking new ones."""
        self.task: asyncio.Task[None] | None = None
        self.client_runs = False
        """The server would not seat house bots: this client runs them (`_ask_house`)."""
        host.seat_keeper.bots = self.team

    def bring_back(self, saved: SavedSeat) -> None:
        """Resume the bots saved with the host's seat instead of seating new ones."""
        self.count, self.speed, self.returning = len(saved.bots), saved.bot_speed, True
        self.tokens = dict(enumerate(saved.bots, 1))

    def team(self) -> Team:
        """The bots' tokens, Bot 1 first, and speed: for the host's saved seat."""
        return Team(tuple(self.tokens[number] for number in sorted(self.tokens)), self.speed)

    async def __aenter__(self) -> BotTeam:
        if self.count:
            self.task = asyncio.create_task(self.run())
        else:
            self.seated.set()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def hold(self, lines: AsyncIterator[str]) -> AsyncIterator[str]:
        """``lines``, from the moment every bot is seated."""
        await self.seated.wait()
        async for line in lines:
            yield line

    async def run(self) -> None:
        """Seat the bots (or bring them back) once the host is in, then let them race."""
        await self._wait(lambda tracker: tracker.room)
        watcher = asyncio.create_task(self._watch_seats())
        try:
            await asyncio.gather(*(self._seat(n) for n in range(1, self.count + 1)))
        finally:
            watcher.cancel()

    async def _watch_seats(self) -> None:
        await self._wait(lambda _: self.entered + self.failed >= self.count or None)
        self.seated.set()
        if self.failed:
            return
        bots = {1: "Your bot is", 2: "Both bots are"}.get(self.count, f"All {self.count} bots are")
        if self.returning:
            self.write(f"{bots} back.")
        else:
            self.write(f"{bots} seated. {self.ready_hint}")

    async def _wait(self, found: Callable[[Tracker], _T | None]) -> _T:
        while (value := found(self.host.tracker)) is None:
            self.host.news.clear()
            await self.host.news.wait()
        return value

    async def _seat(self, number: int) -> None:
        """Run bot ``number`` in the host's room for as long as the host stays."""
        level = self.level or FIELD[min(number, len(FIELD)) - 1]
        name = level_name(f"Bot {number}", level)
        plan = BotPlan(name, DEFAULT_STRATEGY, self.speed, seed=number, rematches=True, level=level)
        said: list[str] = []
        token = self.tokens.get(number)
        if token is None and not self.client_runs and await self._ask_house(plan.name, level):
            return
        if token is not None:
            resume = _resuming(token, self.host.tracker.last_seq)
            await run_bot(self.host.server, resume, plan, said.append, self._in(number))
            del self.tokens[number]
            room = self.host.tracker.room
            if room is None or room.phase != "lobby":
                self._stopped(plan, said)
                return
        code = self.host.tracker.code
        assert code is not None
        join = _joining(code, plan.name, level)
        await run_bot(self.host.server, join, plan, said.append, self._in(number))
        self.tokens.pop(number, None)
        self._stopped(plan, said)

    async def _ask_house(self, name: str, level: Level) -> bool:
        """Ask the server to seat and play the bot (a house bot: it stays when the host
        leaves); False when it will not, and from then on this client runs the bots."""
        request = AddBot(id=self.host.pending.next_id(), level=level, name=name)
        if isinstance(await self.host.call(request), Ok):
            self.entered += 1
            self.host.news.set()
            return True
        if not self.client_runs:
            self.client_runs = True
            self.write("Your client runs the bots instead; they leave when you do.")
        return False

    def _in(self, number: int) -> Callable[[Tracker], None]:
        """Hears bot ``number`` in its seat: keeps its token and counts it in."""

        def entered(tracker: Tracker) -> None:
            if tracker.token is not None:
                self.tokens[number] = tracker.token
            self.entered += 1
            self.host.news.set()

        return entered

    def _stopped(self, plan: BotPlan, said: list[str]) -> None:
        """A bot's session ended (it never does while the host stays): say why."""
        if not self.seated.is_set():
            self.failed += 1
            self.host.news.set()
        self.write(f"{plan.name} stopped: " + " ".join(said[-1:]))


def _joining(code: str, name: str, level: Level) -> Entry:
    return lambda request_id: JoinRoom(id=request_id, code=code, name=name, bot=True, level=level)


def _resuming(token: str, last_seq: int) -> Entry:
    return lambda request_id: Resume(id=request_id, token=token, last_seq=last_seq)
