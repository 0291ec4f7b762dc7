"""The full-screen race client: lobby, race, results and watching, on one screen.

Theory of operation: a `ScreenSession` (the line-mode session with its
requests, resends and reconnects) runs inside the app and keeps a `Tracker`
current; every server message calls `changed`, which notes refusals and news
and redraws the screen for the room's phase. Keys and typed lines become jobs
on one queue, done one at a time, so each move goes out with the version the
previous one produced. A clock tick redraws the race clock and countdown.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App
from textual.binding import Binding, BindingType

from bots.levels import Level
from client_cli.bots.runner import DEFAULT_SPEED
from client_cli.bots.team import BotTeam
from client_cli.room.verify import check_race
from client_cli.session.saved_seats import SavedSeat
from client_cli.session.session import Entry
from client_cli.tui import _actions, _dead_end, hints
from client_cli.tui.glyphs import Glyphs
from client_cli.tui.link import ScreenSession
from client_cli.tui.panel import URGENT_S, WARN_S, time_left_ms, warning_due
from client_cli.tui.race import RaceScreen, WatchScreen
from client_cli.tui.screens import (
    ConfirmScreen,
    HelpScreen,
    LobbyScreen,
    ResultsScreen,
    View,
    WaitScreen,
)
from client_cli.tui.state import Job, ScreenState
from client_cli.tui.texts import QUIET_EVENTS, help_text
from client_cli.words.describe import describe_error, idle_news, rematch_news
from engine import Move
from protocol import (
    ClientMessage,
    DeadEnd,
    Error,
    ErrorCode,
    EventFrame,
    GhostProgress,
    GoingAway,
    IdleWarning,
    Joined,
    MakeMove,
    MoveOk,
    RaceOver,
    Rematch,
    Resumed,
    ServerMessage,
    Snapshot,
)

REFUSAL_STYLE = "bold red"
"""The message line's style for a refusal or an error."""
TICK_S = 0.2
NOTES_KEPT = 20
READY_HINT = "Press space when you are ready."

CSS = """
Screen { layout: vertical; }
#top { height: 1; background: $boost; }
#main { height: 1fr; }
#board { width: 1fr; height: 1fr; padding: 0 0 0 1; }
#panel { width: 26; height: 1fr; border-left: solid $primary; padding: 0 0 0 1; }
/* A refusal or news wraps to two rows: each fits in two of 80 columns, and the
   live panel keeps its rows for eight racers. */
#message { height: auto; min-height: 1; max-height: 2; padding: 0 1; }
#moveline { height: 1; border: none; padding: 0 1; }
#keys { height: 1; color: $text-muted; }
#lobby, #results { height: 1fr; padding: 1 2; }
LobbyScreen #keys, ResultsScreen #keys { height: 2; padding: 0 2; }
HelpScreen, MovesScreen, ConfirmScreen { align: center middle; }
#dialog { height: auto; border: round $primary; padding: 0 1; background: $panel; }
HelpScreen #dialog, MovesScreen #dialog { width: 100%; }
ConfirmScreen #dialog { width: 40; }
"""


class RaceApp(App[int]):
    CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+l", "redraw", "Redraw", show=False)]

    def __init__(
        self,
        server: str,
        entry: Entry,
        glyphs: Glyphs,
        seats_dir: Path | None = None,
        *,
        bots: int = 0,
        bot_speed: float = DEFAULT_SPEED,
        bot_level: Level | None = None,
    ) -> None:
        """``seats_dir``: the directory of saved seats; ``bots``: how many bots to
        seat in the room this app creates (keys wait until they are in), at
        ``bot_level`` (``None``: the default field, see `BotTeam`)."""
        super().__init__()
        self.session = ScreenSession(server, self.note, self.changed, seats_dir)
        self.team = BotTeam(self.session, bots, bot_speed, self.note, READY_HINT, level=bot_level)
        self.entry, self.glyphs = entry, glyphs
        self.state = ScreenState()
        """The picked card, the hinted move and the message line: what the screens and
        key helpers change (they see this app as a `state.RaceControls`)."""
        self.over: RaceOver | None = None
        self.checks: list[str] = []
        self.notes: list[str] = []
        """Every note shown, to print once the screen is gone."""
        self.same_deal: bool | None = None
        """After a rematch request: keep the public deal, or move on to the next."""
        self.jobs: asyncio.Queue[Job] = asyncio.Queue()
        self.leaving: asyncio.Queue[str | None] = asyncio.Queue()
        """The session's typed lines: only the end (keys and the move line become jobs)."""
        self.quitting = False
        self.views: dict[str, View] = {}
        self.warned: set[int] = set()
        """The time warnings (in seconds left) given in this race."""

    async def on_mount(self) -> None:
        for name, view in (
            ("wait", WaitScreen()),
            ("lobby", LobbyScreen()),
            ("race", RaceScreen()),
            ("watch", WatchScreen()),
            ("results", ResultsScreen()),
        ):
            self.views[name] = view
            self.install_screen(view, name)
        await self.push_screen("wait")
        self.run_worker(self._play(), name="session")
        self.run_worker(self._work(), name="jobs")
        self.set_interval(TICK_S, self.tick)

    def resume(self, saved: SavedSeat) -> None:
        """Enter by resuming a saved seat, with the bots saved with it."""
        self.entry = self.session.resume_from(saved)
        self.team.bring_back(saved)

    async def _play(self) -> None:
        if self.team.count:
            doing = "Bringing back" if self.team.returning else "Seating"
            bots = "your bot" if self.team.count == 1 else f"{self.team.count} bots"
            self.note(f"{doing} {bots}...")
        async with self.team:
            status = await self.session.run(self.entry, self._until_leaving())
        self.exit(status, return_code=status)

    async def _until_leaving(self) -> AsyncIterator[str]:
        while (line := await self.leaving.get()) is not None:
            yield line

    async def _work(self) -> None:
        """Run the queued jobs in order, once every bot has its seat (so that saying
        ready cannot start the race before the bots are in)."""
        await self.team.seated.wait()
        while True:
            job = await self.jobs.get()
            await job()

    def do(self, job: Job) -> None:
        """Queue a request; jobs run one after the other."""
        self.jobs.put_nowait(job)

    def action_redraw(self) -> None:
        self.refresh(repaint=True, layout=True)
        self.redraw()

    def action_quit(self) -> None:  # type: ignore[override]
        """Leave the room through the session; a second request leaves at once."""
        if self.quitting:
            self.exit(1, return_code=1)
        self.quitting = True
        self.leaving.put_nowait(None)

    def note(self, text: str | Text, error: bool = False) -> None:
        """Show the first line of ``text`` under the board, wrapped to two rows at most
        (the session's notes come here too)."""
        line = Text(text) if isinstance(text, str) else text
        self.notes = [*self.notes[-NOTES_KEPT:], line.plain]
        self.state.message = line.split()[0] if line.plain else Text("")
        self.state.message.style = REFUSAL_STYLE if error else ""
        self.redraw()

    def changed(
        self, message: ServerMessage, request: ClientMessage | None, lines: list[str]
    ) -> None:
        if isinstance(message, Error):
            self.note(_refusal(message, request, self.glyphs), error=True)
        elif isinstance(message, MoveOk):
            self.state.held = None
            if self.state.message.style == REFUSAL_STYLE:
                self.state.message = Text("")  # a refusal is old news once a move is taken
            _dead_end.moved_on(self)
            hints.moved_on(self)
        elif isinstance(message, EventFrame):
            self._event(message, lines)
        elif isinstance(message, DeadEnd):
            _dead_end.noticed(self)
        elif isinstance(message, Resumed | GoingAway) and lines:
            self.note(lines[0])  # the end of "reconnecting...", or its start
        elif isinstance(message, Joined | Snapshot):
            self._results_caught_up()
            self._idle_caught_up()
        self.redraw()

    def _idle_caught_up(self) -> None:
        """Ring and say so when a reply's room says your idle warning still stands."""
        room, seat = self.session.tracker.room, self.session.tracker.seat
        if room is None or seat is None or room.phase != "racing":
            return
        if any(p.seat == seat and p.idle_timeout_at_ms is not None for p in room.players):
            self._idle_alarm(idle_news(seat, room, seat))

    def _idle_alarm(self, line: str) -> None:
        self.bell()
        self.note(line, error=True)

    def _results_caught_up(self) -> None:
        """Show the results a reply's room has finished with (a spectator who comes
        after the race, or a seat resumed after it ended, gets them with the room)."""
        tracker = self.session.tracker
        over, room = tracker.results, tracker.room
        if over is None or room is None or room.phase != "finished":
            return
        shown = self.over is not None and self.over.race_no == over.race_no
        if over.race_no == room.race_no and not shown:
            self._results(over)

    def _results(self, over: RaceOver) -> None:
        tracker = self.session.tracker
        assert tracker.room is not None
        self.over, self.state.held = over, None
        deal = tracker.room.settings.deal_number
        room = tracker.room
        option = room.settings.rule_option
        self.checks = check_race(
            over, room.variant, deal, tracker.seat, tracker.board, option=option
        )

    def _event(self, frame: EventFrame, lines: list[str]) -> None:
        event, tracker = frame.event, self.session.tracker
        if isinstance(event, GhostProgress) and event.outcome == "playing":
            return  # the panel shows it (the room keeps it); a ghost's finish is news too
        if isinstance(event, RaceOver) and tracker.room is not None:
            self._results(event)
        if isinstance(event, Rematch):
            self.over = None
            self.note(rematch_news(event.race_no, None if tracker.seat is None else READY_HINT))
            _actions.after_rematch(self)  # its word on the deal goes after the news
        elif isinstance(event, IdleWarning) and event.seat == tracker.seat and lines:
            self._idle_alarm(lines[0])
        elif lines and not isinstance(event, QUIET_EVENTS):
            self.note(lines[0])

    def tick(self) -> None:
        """Redraw the clocks; ring and say so when a minute, then ten seconds, are left."""
        room = self.session.tracker.room
        if room is not None and room.phase != "racing":
            self.warned.clear()
        elif room is not None and self.session.tracker.seat is not None:
            left_ms = time_left_ms(room, self.session.now_ms())
            due = warning_due(left_ms, self.warned, room.settings.time_limit_s)
            if due is not None:
                self.warned.update(mark for mark in (WARN_S, URGENT_S) if mark >= due)
                self.bell()
                self.note(f"{'One minute' if due == WARN_S else 'Ten seconds'} left!", error=True)
        self.redraw()

    def redraw(self) -> None:
        """Show the screen of the room's phase and redraw it."""
        if not self.views or not self.screen_stack:
            return  # not started yet, or already closing
        name = _screen_for(self)
        view = self.views[name]
        if self.screen is not view and isinstance(self.screen, View):
            self.switch_screen(name)
        view.refresh_view()

    def board_key(self, key: str) -> bool:
        """A key pressed on the race screen; False when it means nothing there."""
        if key == "?":
            self.push_screen(HelpScreen())
            return True
        if key == "x":
            self.confirm_resign()
            return True
        if key == hints.HINT_KEY:
            self.do(lambda: hints.show_hint(self))
            return True
        return _dead_end.resign_key(self, key) or _actions.board_key(self, key)

    def lobby_key(self, key: str) -> bool:
        if key == "?":
            self.push_screen(HelpScreen(help_text(self.session.tracker.seat)))
            return True
        return _actions.lobby_key(self, key)

    def typed(self, line: str) -> None:
        """A line from the move line: a move, or a command word."""
        word = line.strip().lower()
        if word == "quit":
            self.action_quit()
        elif word == "help":
            self.push_screen(HelpScreen())
        elif word == "resign":
            self.confirm_resign()
        elif word in ("board", "room"):
            self.note("The board and the room are on the screen.")
        elif word == "moves":
            _actions.show_moves(self)
        elif word:
            self.do(lambda: self.session.execute(line))

    def send_move(self, move: Move) -> None:
        self.state.held = None
        self.do(lambda: self.session.move(move))

    def confirm_resign(self) -> None:
        if self.session.tracker.board is None:
            self.note("The race has not started: there is nothing to resign yet.", error=True)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.do(lambda: self.session.execute("resign"))

        self.push_screen(ConfirmScreen("Resign this race?"), answered)

    def rematch(self, same_deal: bool) -> None:
        self.same_deal = same_deal
        self.do(lambda: self.session.execute("rematch"))

    def challenge(self) -> None:
        """Make the race just over a challenge; its code is noted (and printed on exit)."""
        self.do(lambda: self.session.execute("challenge"))


def _screen_for(app: RaceApp) -> str:
    room = app.session.tracker.room
    if room is None:
        return "wait"
    if room.phase == "lobby":
        return "lobby"
    if room.phase == "finished" and app.over is not None:
        return "results"
    return "watch" if app.session.tracker.seat is None else "race"


def _refusal(error: Error, request: ClientMessage | None, glyphs: Glyphs) -> str | Text:
    """The refusal in words; a move's reason from the engine names its cards as the
    board draws them (``K♣`` where the engine says ``Kc``)."""
    if isinstance(request, MakeMove):
        if error.code == ErrorCode.MOVE_ILLEGAL and error.message:
            return Text(f"{request.move}: ") + glyphs.cards_in(error.message)
        return f"{request.move}: {error.message or error.code.value}"
    if request is None:
        return f"Server error ({error.code.value}): {error.message}"
    return describe_error(request, error)
