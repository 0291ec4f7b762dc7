"""What one client knows of its room and its game, and the lines worth showing.

Theory of operation: `Tracker.on_message` takes every server message in
arrival order, updates the room, the player's board and version and the last
event seq as every client does (`protocol.follow.Follower`), and returns the
lines worth showing. It does no I/O and reads no clock, so every front end
(line mode, full screen, the client's bots) can share it and tests can drive
it with plain messages. In a finished room the reply (``joined`` or
``snapshot``) carries the race's results, so a client that comes after the
race shows them as if it had seen it end.
"""

from __future__ import annotations

from client_cli.room import dead_end
from client_cli.room.verify import check_race
from client_cli.room.visible import visible_moves
from client_cli.words.describe import describe, standing_idle
from client_cli.words.render import format_clock, player_name, render, render_ranking, render_room
from client_cli.words.rule_words import redeal_rule
from engine import find_variant
from protocol import (
    BoardShown,
    BoardView,
    DeadEnd,
    EventFrame,
    GoingAway,
    Joined,
    MoveOk,
    PlayerFinished,
    ProgressMade,
    RaceOver,
    RaceStarted,
    Rematch,
    Resumed,
    ServerMessage,
    Snapshot,
)
from protocol.follow import Follower


class Tracker(Follower):
    def __init__(self) -> None:
        super().__init__()
        self.boards: dict[int, tuple[int, BoardView]] = {}
        """Spectators: each player's latest version and board, by seat."""
        self.progress_news: dict[int, str] = {}
        """Other players' latest progress line, by seat, not yet shown (see `session.digest`)."""

    def on_message(self, message: ServerMessage) -> list[str]:
        """Take one message into account; the lines to show for it."""
        if isinstance(message, EventFrame):
            return self._event(message)
        if isinstance(message, MoveOk):
            self.board, self.version = message.board, message.version
            return [render(message.board)]
        if isinstance(message, Joined):
            return self._joined(message)
        if isinstance(message, Snapshot):
            return self._snapshot(message)
        if isinstance(message, Resumed):
            return self._resumed(message)
        if isinstance(message, DeadEnd):
            return dead_end.take(self, message)
        if isinstance(message, GoingAway):
            return [f"The server is going away ({message.message or 'no reason given'})."]
        return []

    def countdown_target_ms(self) -> int | None:
        """When the race starts, while a countdown runs."""
        if self.room is None or self.room.phase != "countdown":
            return None
        return self.room.start_at_ms

    def ends_at_ms(self) -> int | None:
        """When the running race ends."""
        room = self.room
        if room is None or room.phase != "racing" or room.start_at_ms is None:
            return None
        return room.start_at_ms + room.settings.time_limit_s * 1000

    def room_text(self) -> str:
        if self.room is None:
            return "Not in a room yet."
        return render_room(self.room, self.seat)

    def board_text(self, now_ms: int) -> str:
        """The player's board and time left; for a spectator every board."""
        if self.seat is None:
            return self._spectator_boards()
        if self.board is None:
            return "No board yet: the race has not started."
        ends_at = self.ends_at_ms()
        clock = "" if ends_at is None else f"\nTime left {format_clock(ends_at - now_ms)}"
        return render(self.board) + clock

    def moves_text(self) -> str:
        if self.seat is None:
            return "Spectators have no moves."
        if self.board is None:
            return "No board yet: the race has not started."
        moves = self.move_texts()
        if not moves:
            return "No move changes this board."
        return f"{len(moves)} moves: " + ", ".join(moves)

    def move_texts(self) -> list[str]:
        """The moves the player's board allows now, as text (none for a spectator)."""
        if self.seat is None or self.board is None or self.board.outcome != "playing":
            return []
        return [move.format() for move in visible_moves(self.board)]

    def _joined(self, message: Joined) -> list[str]:
        self.take_joined(message)
        lines = [render_room(message.room, message.seat)]
        if message.seat is None:
            lines.append("You are watching. Type help for the commands.")
        else:
            lines.append(f"Share the code {message.code}: solrace join {message.code} --name NAME")
            lines.append("Type ready when you are, help for the commands.")
        return lines + standing_idle(message.room, message.seat) + self._results_of(message.results)

    def _snapshot(self, message: Snapshot) -> list[str]:
        for frame in self.take_snapshot(message):
            self._event(frame)
        assert self.room is not None
        lines = [render_room(self.room, self.seat)]
        if self.board is not None:
            lines.append(render(self.board))
        return lines + standing_idle(self.room, self.seat) + self._results_of(message.results)

    def _results_of(self, over: RaceOver | None) -> list[str]:
        """A reply's race results, unless the race's end was already shown."""
        if over is None or (self.results is not None and self.results.race_no == over.race_no):
            return []
        return self._over(over)

    def _resumed(self, message: Resumed) -> list[str]:
        self.take_resumed(message)
        if message.board is None:
            return [f"Back in room {message.code}."]
        return [f"Back in room {message.code}.", f"Your board:\n{render(message.board)}"]

    def _event(self, frame: EventFrame) -> list[str]:
        if isinstance(frame.event, BoardShown):
            self._board_shown(frame.event)
            return []
        event = frame.event
        before = self.take_event(frame)
        if before is None:
            return []
        text = describe(event, before, self.seat)
        if isinstance(event, ProgressMade) and text is not None:
            self.progress_news[event.seat] = text
            return []
        if isinstance(event, PlayerFinished):
            self.progress_news.pop(event.seat, None)
        lines = [] if text is None else [text]
        if isinstance(event, RaceStarted):
            lines += self._started(event)
        elif isinstance(event, RaceOver):
            lines += self._over(event)
        elif isinstance(event, Rematch):
            self.boards = {}
        return lines

    def _started(self, event: RaceStarted) -> list[str]:
        if self.seat is None:
            assert self.room is not None
            for player in self.room.players:
                self.boards.setdefault(player.seat, (0, event.board))
            return []
        return [render(event.board)]

    def _board_shown(self, event: BoardShown) -> None:
        """Board frames carry the seq of the move's progress event, so they are
        not ordered by seq but by each player's game version."""
        version, _ = self.boards.get(event.seat, (-1, event.board))
        if event.version >= version:
            self.boards[event.seat] = (event.version, event.board)

    def _over(self, event: RaceOver) -> list[str]:
        assert self.room is not None
        self.results = event
        self.progress_news.clear()
        rules = find_variant(self.room.variant)
        deal = self.room.settings.deal_number
        option = self.room.settings.rule_option
        rule = redeal_rule(self.room.variant, option)
        lines = [render_ranking(event, rules.total, self.room.rating_changes, rule)]
        lines += check_race(event, self.room.variant, deal, self.seat, self.board, option=option)
        return lines

    def _spectator_boards(self) -> str:
        if self.room is None or not self.boards:
            return "No boards yet."
        parts = [
            f"{player_name(self.room, seat)} (#{seat + 1}), move {version}:\n{render(board)}"
            for seat, (version, board) in sorted(self.boards.items())
        ]
        return "\n\n".join(parts)
