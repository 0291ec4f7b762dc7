"""The words of the lobby, results and help screens, as pure functions of protocol values."""

from __future__ import annotations

from rich.text import Text

from client_cli.tui.panel import STATES, state_of
from client_cli.words.ratings import (
    BOT,
    GUEST,
    identity,
    identity_width,
    rated_news,
    rating_change,
    rating_due,
    signed,
)
from client_cli.words.render import (
    STOPPED,
    deal_name,
    format_clock,
    format_duration,
    host_end_text,
    last_race_lines,
    outcome_word,
    seat_name,
    stopped_by_host,
)
from client_cli.words.rule_words import redeal_rule
from engine import find_variant
from protocol import (
    BoardShown,
    DealAnalysed,
    HostEnd,
    PlayerInfo,
    ProgressMade,
    RaceOver,
    RaceRated,
    RaceSummary,
    RoomSnapshot,
    SummaryLine,
)

QUIET_EVENTS = (ProgressMade, BoardShown, RaceOver, DealAnalysed, RaceRated)
"""Events the panel or the results show; they never take the message line."""
TIE_BREAKS = (
    "Ranked: winners first by finish time; then by cards home, then by when that "
    "count was first reached; exact ties go to the lower seat."
)

HELP = """\
Keys on the board (Tab or : goes to the move line, Esc comes back):
  1-9 0 b c e g ... v  pick up pile t1, t2, ... (each pile shows its key);
                       again: one more card of the run; another pile's
                       key puts the cards there; Esc lets go
  w  r      pick up the waste top, the reserve top
  f  h      send the picked card home (h with nothing picked: any card)
  a         send every card that can go home now, one move at a time
  d  space  draw, turn the waste over, deal or redeal
  x         resign (asks first)      ?  this help      Ctrl+Q  quit
  H         practice rooms: a hint, the next move of a winning line,
            put on the move line (Enter plays what the line holds)
  R         resign at once, when the server says no card can go home
The move line (Up/Down: history, Right: take the suggested move):
  t3 t7     the run of pile 3 that fits onto pile 7
  t3:2 t7   exactly the top two cards of pile 3 onto pile 7
  t3 f      top of pile 3 home (t3 f5: onto foundation 5)
  w t1  w f / r t1  r f    the waste or reserve top to pile 1, or home
  moves     list every move your board allows
  draw  recycle  deal  redeal  ready  unready  resign  rematch  quit"""

WATCH_HELP = """\
Watching (the race shows when it starts):
  every racer's board, side by side as far as the width allows,
  with every racer's progress, moves and state beside them
  n  p      show the next, the previous racer's board first
  ?         this help      Ctrl+Q  leave
While the race runs, a card that some racer still racing has not seen
yet is drawn as a card back; the results show every move."""


def help_text(you: int | None) -> str:
    """The keys: a player's, or a spectator's."""
    return WATCH_HELP if you is None else HELP


def lobby_lines(room: RoomSnapshot, you: int | None, link: str | None = None) -> list[Text]:
    """The room code to share (and ``link``, its spectator page), the game and settings,
    every seat and its ready state."""
    settings = room.settings
    deal = deal_name(settings)
    lines = [
        Text.assemble(("Room ", "bold"), (room.code, "bold reverse"), f"  race {room.race_no}"),
        Text(f"Share it: solrace join {room.code} --name NAME", style="dim"),
        *([Text(f"Watch it in a browser: {link}", style="dim")] if link else []),
        Text(""),
        Text.assemble(("Game  ", "bold"), find_variant(room.variant).name, f"  ({deal})"),
        *_rule_lines(room),
        Text(
            f"Seats {len(room.players)}/{settings.max_players}   time limit "
            f"{format_clock(settings.time_limit_s * 1000)}   countdown {settings.countdown_s} s"
            f"   spectators {room.spectators}"
        ),
    ]
    terms = []
    if settings.idle_limit_s is not None:
        terms.append(f"idle limit {settings.idle_limit_s} s once someone has finished")
    if settings.spectator_delay_s:
        terms.append(f"spectators see boards {settings.spectator_delay_s} s late")
    if terms:
        said = "   ".join(terms)
        lines.append(Text(said[0].upper() + said[1:]))
    if settings.practice:
        lines.append(
            Text("Practice room: H gives a hint during the race; not ranked.", style="dim")
        )
    if settings.rated:
        lines.append(Text("Rated: a race of two or more accounts changes their ratings."))
    lines.append(Text(""))
    kinds = identity_width(room.players)
    for player in room.players:
        state = state_of(player, room.phase)
        mark = "host " if player.seat == room.host else "     "
        line = Text(f"  #{player.seat + 1} {mark}{player.name:<16} ")
        line.append_text(identity_mark(player, kinds)).append("  ")
        line.append(state, style="bold green" if state == "ready" else "yellow")
        if player.seat == you:
            line.append("  (you)", style="bold")
        lines.append(line)
    return lines


def identity_mark(player: PlayerInfo, width: int) -> Text:
    """The seat's rating (bold; ``provisional`` dim), or a dim guest or bot mark."""
    said = identity(player)
    if said in (GUEST, BOT) or not player.account:
        return Text(f"{said:<{width}}", style="dim")
    rating, _, rest = said.partition(" ")
    return Text.assemble(
        (rating, "bold"), (f" {rest}" if rest else "", "dim"), " " * (width - len(said))
    )


def last_race_block(summary: RaceSummary, folded: bool = False) -> list[Text]:
    """The previous race in brief, under the lobby's seats: a line per player, or
    (`folded`, for a screen too small for that) every player's place, cards home or
    winning time, and outcome in one paragraph."""
    heading, *places = last_race_lines(summary)
    if not folded:
        return [Text(""), Text(heading, style="bold"), *(Text(f"  {place}") for place in places)]
    total = find_variant(summary.variant).total
    brief = [_brief(line, summary.ended_by_host, total) for line in summary.ranking]
    return [Text.assemble((heading, "bold"), " ", "   ".join(brief))]


def _brief(line: SummaryLine, end: HostEnd | None, total: int) -> str:
    """A place of the last race in a few words: the winning time, or cards home and how."""
    if line.outcome == "won":
        return f"{line.rank}. {line.name} won {format_duration(line.elapsed_ms)}"
    ending = (
        STOPPED if stopped_by_host(end, line.outcome, line.elapsed_ms) else STATES[line.outcome]
    )
    return f"{line.rank}. {line.name} {line.progress}/{total} {ending}"


def lobby_keys(room: RoomSnapshot, you: int | None) -> str:
    keys = "space: ready/unready   ?: help   ctrl+q: leave"
    if you is None:
        keys = "watching: the race shows when it starts   ctrl+q: leave"
    elif room.host == you:
        keys += "\nhost: g game n deal s secret w winnable R rated t time +/- seats b/B bot"
    return keys


def results_lines(
    over: RaceOver, total: int, checks: list[str], room: RoomSnapshot | None = None
) -> list[Text]:
    """The ranking with outcome, cards home, race time and moves (and who stopped the
    race, if the host did), each account's rating change once ``room`` has them; then
    the replay checks."""
    lines = [Text(f"Race {over.race_no} results", style="bold")]
    if room is not None:
        lines += _rule_lines(room)
    if over.ended_by_host is not None:
        host = seat_name(over.ranking, over.ended_by_host.seat)
        lines.append(Text(host_end_text(over.ended_by_host, host), style="bold yellow"))
    lines += [Text(TIE_BREAKS, style="dim"), Text("")]
    for result in over.ranking:
        style = "bold green" if result.outcome == "won" else ""
        lines.append(
            Text(
                f" {result.rank}. {result.name:<16} {outcome_word(over, result):<9}"
                f"{result.progress:>4}/{total}  {format_duration(result.elapsed_ms):>9}"
                f"  {result.moves:>4} {'move' if result.moves == 1 else 'moves'}",
                style=style,
            )
        )
        change = None if room is None else rating_change(room, result.seat)
        if change is not None:
            up = change.after >= change.before
            lines[-1].append(f"  {signed(change):>4}", style="bold green" if up else "bold red")
    if room is not None and room.rating_changes:
        lines += [Text(""), Text(rated_news(over.race_no, room.rating_changes))]
    elif room is not None and rating_due(room):
        lines += [
            Text(""),
            Text("Rated race: the ratings change once the server has settled it.", style="dim"),
        ]
    lines.append(Text(""))
    for check in checks:
        lines.append(Text(check, style="bold red" if check.startswith("WARNING") else "green"))
    return lines


def _rule_lines(room: RoomSnapshot) -> list[Text]:
    """The line naming the room's redeal rule, where its game redeals."""
    rule = redeal_rule(room.variant, room.settings.rule_option)
    return [Text(rule)] if rule else []


def folded_checks(checks: list[str]) -> list[str]:
    """The checks with every replay that agrees said in one line (warnings kept), for a
    screen too small for a line each."""
    agreeing = [check for check in checks if check.startswith("Replayed ")]
    if len(agreeing) < 2:
        return checks
    kept = [check for check in checks if check not in agreeing]
    return [*kept, f"Replayed {len(agreeing)} players' moves: each agrees with their result."]


def rows_taken(lines: list[Text], width: int) -> int:
    """How many rows ``lines`` take in an area ``width`` cells wide, long lines wrapped."""
    return sum(max(1, -(-line.cell_len // max(1, width))) for line in lines)


def results_keys(room: RoomSnapshot, you: int | None) -> str:
    if you is not None and room.host == you:
        return "m: rematch, new deal   M: same public deal   c: challenge   ctrl+q: leave"
    if you is not None:
        return "waiting for the host to call a rematch   c: challenge   ctrl+q: leave"
    return "waiting for the host to call a rematch   ctrl+q: leave"
