"""The live side panel: the race clock and every racer's name, bar, moves and state,
then a challenge's ghosts: each recorded run's progress as the server last showed it.

Pure: the room, the caller's seat, the server time and the ghosts in, styled lines
out. Opponents' progress only ever changes these lines; nothing scrolls.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from client_cli.tui.glyphs import Glyphs
from client_cli.words.render import format_clock
from engine import find_variant
from protocol import PlayerInfo, RoomSnapshot

WARN_S = 60
URGENT_S = 10
STATES = {
    "playing": "racing",
    "won": "won",
    "stuck": "stuck",
    "resigned": "resigned",
    "timeout": "timed out",
}
STATE_STYLES = {"won": "bold green", "stuck": "yellow", "resigned": "dim", "timed out": "red"}


def state_of(player: PlayerInfo, phase: str) -> str:
    """What a racer is doing, in words: ready or not in the lobby, then their race state
    (their race's outcome stays, even once they have left)."""
    finished = phase in ("racing", "finished") and player.outcome != "playing"
    if player.away and not finished:
        return "away"
    if phase == "lobby":
        return "ready" if player.ready else "not ready"
    if phase == "countdown":
        return "ready"
    return STATES[player.outcome]


def time_left_ms(room: RoomSnapshot, now_ms: int) -> int | None:
    """Race time left, while the race runs."""
    if room.phase != "racing" or room.start_at_ms is None:
        return None
    return room.start_at_ms + room.settings.time_limit_s * 1000 - now_ms


def warning_due(left_ms: int | None, given: set[int], limit_s: int) -> int | None:
    """The warning (60 or 10 seconds) whose moment has come and that was not given yet;
    none that a race of `limit_s` seconds starts within (a one-minute race is not
    "one minute left" at its start)."""
    if left_ms is None:
        return None
    marks = [mark for mark in (URGENT_S, WARN_S) if mark < limit_s]
    due = [mark for mark in marks if left_ms <= mark * 1000 and mark not in given]
    return due[0] if due else None


def clock_line(room: RoomSnapshot, now_ms: int) -> Text:
    """Time left, yellow under a minute and red under ten seconds; the phase otherwise."""
    left_ms = time_left_ms(room, now_ms)
    if left_ms is None:
        return Text(f"Race {room.race_no}: {room.phase}", style="bold")
    line = Text(f"{format_clock(left_ms)} left", style="bold")
    if left_ms <= URGENT_S * 1000:
        line.stylize("bold white on red")
        line.append("  hurry!", style="bold red")
    elif left_ms <= WARN_S * 1000:
        line.stylize("bold black on yellow")
        line.append("  1 minute", style="yellow")
    return line


def panel_lines(
    room: RoomSnapshot,
    you: int | None,
    now_ms: int,
    glyphs: Glyphs,
    width: int,
) -> list[Text]:
    """Clock, seed commitment, then two lines per racer, then two per ghost of a
    challenge race (each as the server last showed it, in ghost order)."""
    ghosts = room.ghosts
    lines = [clock_line(room, now_ms)]
    if room.seed_commit:
        lines.append(Text(f"seed {room.seed_commit[: max(8, width - 6)]}", style="dim"))
    lines.append(Text(glyphs.rule * width, style="dim"))
    total = find_variant(room.variant).total
    moves = [player.moves for player in room.players] + [ghost.moves for ghost in ghosts]
    moves_width = max((len(str(count)) for count in moves), default=1)
    bars = Bars(total, glyphs, width, moves_width)
    for player in room.players:
        name = player.name + (" (you)" if player.seat == you else "")
        racing = racer_state(player, room.phase, now_ms)
        lines += bars.lines(name, player.seat == you, racing, (player.progress, player.moves))
    if ghosts:
        lines.append(Text(f"ghosts {glyphs.rule * (width - 7)}", style="dim"))
    for ghost in ghosts:
        name = ghost.name + (" (guest)" if ghost.guest else "")
        state = STATES[ghost.outcome]
        style = STATE_STYLES.get(state, "dim cyan")
        lines += bars.lines(name, False, (state, style), (ghost.progress, ghost.moves), "blue")
    return lines


def racer_state(player: PlayerInfo, phase: str, now_ms: int) -> tuple[str, str]:
    """`state_of` and its style; a racer warned for idling shows the time left to move."""
    state = state_of(player, phase)
    if phase == "racing" and state == "racing" and player.idle_timeout_at_ms is not None:
        return f"idle {format_clock(player.idle_timeout_at_ms - now_ms)}", "bold white on red"
    return state, STATE_STYLES.get(state, "cyan" if state == "racing" else "")


@dataclass(frozen=True, slots=True)
class Bars:
    """Two lines per racer or ghost, every bar as long as the others."""

    total: int
    glyphs: Glyphs
    width: int
    moves_width: int

    def lines(
        self,
        name: str,
        bold: bool,
        state_and_style: tuple[str, str],
        counts: tuple[int, int],
        colour: str = "green",
    ) -> list[Text]:
        """Name and state, then the bar of cards home, the count and the moves
        (`counts`: cards home and moves)."""
        state, style = state_and_style
        progress, moves = counts
        width, total = self.width, self.total
        head = Text(name[: width - len(state) - 1], style="bold" if bold else "")
        head.pad_right(width - len(head) - len(state))
        head.append(state, style=style)
        count = f" {progress:>{len(str(total))}}/{total}"
        made = f" {moves:>{self.moves_width}}m"
        bar_width = max(4, width - len(count) - len(made))
        filled = round(bar_width * progress / total)
        bar = Text(self.glyphs.full * filled, style=colour)
        bar.append(self.glyphs.blank * (bar_width - filled), style="dim")
        return [head, bar + Text(count) + Text(made, style="dim")]


BIG_DIGITS = {
    "0": ("###", "# #", "# #", "# #", "###"),
    "1": (" # ", "## ", " # ", " # ", "###"),
    "2": ("###", "  #", "###", "#  ", "###"),
    "3": ("###", "  #", "###", "  #", "###"),
    "4": ("# #", "# #", "###", "  #", "  #"),
    "5": ("###", "#  ", "###", "  #", "###"),
    "6": ("###", "#  ", "###", "# #", "###"),
    "7": ("###", "  #", "  #", "  #", "  #"),
    "8": ("###", "# #", "###", "# #", "###"),
    "9": ("###", "# #", "###", "  #", "###"),
}


def big_number(number: int, glyphs: Glyphs) -> list[str]:
    """``number`` in digits five rows high, drawn with the bar glyph, each cell doubled."""
    rows = []
    for row in range(5):
        parts = [BIG_DIGITS[digit][row] for digit in str(max(0, number))]
        text = " ".join(parts).replace("#", glyphs.full)
        rows.append("".join(char * 2 for char in text))
    return rows
