"""Plain-text pictures of a board, a room and a race's ranking.

Pure functions of protocol values: no clock, no I/O. The line-mode client
prints them; a full-screen front end can reuse them. Pile labels match the
move notation (``t3``, ``f2``, ``w``, ``r``) so what is shown can be typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from client_cli.words.ratings import identity, identity_width, rated_news, signed
from client_cli.words.rule_words import redeal_rule
from engine import Rules, find_variant
from engine.cards import RANKS, SUITS
from protocol import (
    BoardView,
    FinishOutcome,
    HostEnd,
    PlayerInfo,
    PlayerResult,
    RaceOver,
    RaceSummary,
    RankReason,
    RatingChange,
    RoomSnapshot,
    Settings,
    SummaryLine,
)

EMPTY = "--"
MAX_PILE_ROWS = 12
"""More piles than this are laid out side by side."""
LINE_WIDTH = 80
PILE_GAP = "   "

PLACED_BY: dict[RankReason, str] = {
    "outcome": "did not win",
    "finish_time": "won later",
    "progress": "fewer cards home",
    "progress_time": "as many cards, reached later",
    "seat": "exact tie, higher seat",
}
"""Why a line of the ranking is below the one above it (docs/protocol.md, "Ranking")."""
FINISH_VERBS: dict[FinishOutcome, str] = {
    "won": "won in",
    "stuck": "got stuck after",
    "resigned": "resigned after",
    "timeout": "timed out after",
}
"""How a player's race ended, said before its race time."""
STOPPED = "stopped"
"""The outcome shown for a player the host's early end stopped (``timeout`` on the wire)."""


def render(board: BoardView) -> str:
    """The board as lines: headline, foundations, stock and reserve, then the piles."""
    rules = find_variant(board.variant)
    lines = [_headline(board, rules), _foundations(board)]
    note = foundation_note(rules, board.base_rank)
    if note:
        lines.append(f"   {note}")
    lines += _stock_lines(board, rules)
    lines += _pile_lines(board.tableau)
    return "\n".join(lines)


def foundation_note(rules: Rules, base_rank: int) -> str:
    """How the foundations build, when it is not plain "up in suit from Ace"."""
    if any(suit is not None for suit in rules.foundation_suits):
        return "; ".join(_direction_groups(rules, base_rank))
    if rules.base_from_deal:
        return f"foundations go up in suit from {RANKS[base_rank - 1]}, King wraps to Ace"
    return ""


def render_room(room: RoomSnapshot, you: int | None = None) -> str:
    """The room: code to share, settings, and one line per seat."""
    name = find_variant(room.variant).name
    rule = redeal_rule(room.variant, room.settings.rule_option)
    lines = [
        f"Room {room.code} - {name} - race {room.race_no} - {room.phase}",
        _deal_line(room),
        *([rule] if rule else []),
        _settings_line(room),
    ]
    total = find_variant(room.variant).total
    widths = max((len(p.name) for p in room.players), default=0), identity_width(room.players)
    for player in room.players:
        lines.append(_player_line(room, player, widths, total, you))
    if room.phase == "lobby" and room.last_race is not None:
        heading, *places = last_race_lines(room.last_race)
        lines += [heading, *(f"  {place}" for place in places)]
    return "\n".join(lines)


def render_ranking(
    over: RaceOver, total: int, changes: Sequence[RatingChange] | None = None, rule: str = ""
) -> str:
    """Final ranking, best first: outcome, cards home, race time, moves, each account's
    rating change once the race is rated (then each new rating, in a sentence), and why
    each player is below the one above; first the rule line given (`redeal_rule`), then
    the host's early end, if any."""
    lines = [f"Race {over.race_no} results:", *([rule] if rule else [])]
    if over.ended_by_host is not None:
        host = seat_name(over.ranking, over.ended_by_host.seat)
        lines.append(host_end_text(over.ended_by_host, host))
    width = max((len(result.name) for result in over.ranking), default=0)
    by_seat = {change.seat: signed(change) for change in changes or ()}
    rated = max(map(len, by_seat.values()), default=0)
    for result in over.ranking:
        rating = f"{by_seat.get(result.seat, ''):>{rated}}" if rated else ""
        lines.append(_result_line(result, outcome_word(over, result), width, total, rating))
    if changes:
        lines.append(rated_news(over.race_no, changes))
    return "\n".join(lines)


def stopped_by_host(end: HostEnd | None, outcome: str, elapsed_ms: int) -> bool:
    """Whether the host's early end of the race is what ended this player's race
    (docs/protocol.md, "HostEnd")."""
    return end is not None and outcome == "timeout" and elapsed_ms == end.elapsed_ms


def outcome_word(over: RaceOver, result: PlayerResult) -> str:
    """A ranking line's outcome as shown: `STOPPED` for a player the host stopped."""
    if stopped_by_host(over.ended_by_host, result.outcome, result.elapsed_ms):
        return STOPPED
    return result.outcome


def host_end_text(end: HostEnd, host: str) -> str:
    """The host's early end of a race in a sentence; `host` is their name."""
    return (
        f"The host, {host}, ended the race early at {format_duration(end.elapsed_ms)}:"
        " those still racing stopped."
    )


def player_name(room: RoomSnapshot, seat: int) -> str:
    """The name of the player in ``seat``, or the seat itself once they have left."""
    for player in room.players:
        if player.seat == seat:
            return player.name
    return f"seat {seat + 1}"


def seat_name(ranking: Iterable[PlayerResult | SummaryLine], seat: int) -> str:
    """The name of the player in `seat`, from a race's ranking."""
    return next((line.name for line in ranking if line.seat == seat), f"seat {seat + 1}")


def last_race_lines(summary: RaceSummary) -> list[str]:
    """The previous race in brief, for a lobby: a heading (with the host's early end,
    if any), then each player's place and how their race ended."""
    end, heading = summary.ended_by_host, f"Last race (race {summary.race_no})"
    if end is not None:
        host = seat_name(summary.ranking, end.seat)
        heading += f", ended early by the host, {host}, at {format_duration(end.elapsed_ms)}"
    total = find_variant(summary.variant).total
    return [f"{heading}:", *(_summary_place(line, end, total) for line in summary.ranking)]


def counted(number: int, word: str) -> str:
    """``1 card``, ``3 cards``: `number` and `word`, with an "s" unless it is one."""
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def format_duration(ms: int) -> str:
    """``m:ss.mmm``; race times are shown to the millisecond the server stamped."""
    seconds, millis = divmod(max(0, ms), 1000)
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes}:{seconds:02d}.{millis:03d}"


def format_clock(ms: int) -> str:
    """``m:ss``, rounded up, for time left on a running clock."""
    seconds = (max(0, ms) + 999) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def _pile_lines(tableau: tuple[tuple[str, ...], ...]) -> list[str]:
    """One pile a line; past `MAX_PILE_ROWS` piles, side by side in rows of
    `LINE_WIDTH` characters at most (Little Billie's 26 fans take 7 rows)."""
    width = len(f"t{len(tableau)}")
    cells = [
        f"{f't{index + 1}':<{width}}  {' '.join(pile) if pile else EMPTY}"
        for index, pile in enumerate(tableau)
    ]
    if len(cells) <= MAX_PILE_ROWS:
        return cells
    cell_width = max(map(len, cells))
    per_row = max(1, (LINE_WIDTH + len(PILE_GAP)) // (cell_width + len(PILE_GAP)))
    padded = [cell.ljust(cell_width) for cell in cells]
    return [
        PILE_GAP.join(padded[start : start + per_row]).rstrip()
        for start in range(0, len(padded), per_row)
    ]


def _headline(board: BoardView, rules: Rules) -> str:
    line = f"{rules.name}: {board.progress}/{board.total} cards home"
    if board.outcome != "playing":
        line += f" - {board.outcome.upper()}"
    return line


def _foundations(board: BoardView) -> str:
    cells = [f"f{index + 1} {card or EMPTY}" for index, card in enumerate(board.foundations)]
    return "   ".join(["  ".join(cells[i : i + 4]) for i in range(0, len(cells), 4)])


def _direction_groups(rules: Rules, base_rank: int) -> list[str]:
    groups: list[str] = []
    for down in (False, True):
        indexes = [i for i, d in enumerate(rules.foundation_down) if d == down]
        if not indexes:
            continue
        start = RANKS[rules.start_rank(indexes[0], base_rank) - 1]
        suits = " ".join(_suit_name(rules.foundation_suits[i]) for i in indexes)
        span = f"f{indexes[0] + 1}-f{indexes[-1] + 1}"
        groups.append(f"{span} {'down' if down else 'up'} from {start} ({suits})")
    return groups


def _suit_name(suit: int | None) -> str:
    return "any" if suit is None else SUITS[suit]


def _stock_lines(board: BoardView, rules: Rules) -> list[str]:
    lines: list[str] = []
    if rules.stock == "draw":
        waste = f"waste {len(board.waste)}, top {board.waste[-1]}" if board.waste else "waste 0"
        lines.append(f"stock {board.stock}   {waste}   {_passes('turn-overs', board)}")
    elif rules.stock == "deal":
        lines.append(f"stock {board.stock} (deal puts one card on each pile)")
    elif rules.redeals:
        lines.append(_passes("redeals", board))
    if rules.reserve:
        top = board.reserve or EMPTY
        lines.append(f"reserve {top} (+{board.reserve_hidden} face down)")
    return lines


def _passes(what: str, board: BoardView) -> str:
    if board.passes_left is None:
        return f"{what} unlimited"
    return f"{what} left {board.passes_left}"


def deal_name(settings: Settings) -> str:
    """What deal a room's settings ask for, as its screens name it."""
    if settings.deal_number is not None:
        return f"public deal {settings.deal_number}"
    return "winnable deal" if settings.winnable_only else "secret deal"


def _deal_line(room: RoomSnapshot) -> str:
    deal = deal_name(room.settings)
    if room.seed_commit:
        deal += f", seed commit {room.seed_commit[:16]}..."
    return f"Deal: {deal}"


def _settings_line(room: RoomSnapshot) -> str:
    settings = room.settings
    return (
        f"Seats {len(room.players)}/{settings.max_players}"
        f" | time limit {format_clock(settings.time_limit_s * 1000)}"
        f" | countdown {settings.countdown_s} s"
        f" | spectator delay {settings.spectator_delay_s} s"
        + ("" if settings.idle_limit_s is None else f" | idle limit {settings.idle_limit_s} s")
        + f" | spectators {room.spectators}"
        + (" | practice: hints allowed" if settings.practice else "")
        + (" | rated" if settings.rated else "")
    )


def _player_line(
    room: RoomSnapshot, player: PlayerInfo, widths: tuple[int, int], total: int, you: int | None
) -> str:
    width, kind = widths
    marks = [f"{identity(player):<{kind}}", "host" if player.seat == room.host else "    "]
    if room.phase == "lobby":
        marks.append("ready    " if player.ready else "not ready")
    else:
        marks.append(f"{player.progress:>3}/{total}  {player.moves:>4} moves  {player.outcome}")
    if player.away:
        marks.append("away")
    if player.seat == you:
        marks.append("(you)")
    return f"  #{player.seat + 1} {player.name:<{width}}  {'  '.join(marks)}".rstrip()


def _summary_place(line: SummaryLine, end: HostEnd | None, total: int) -> str:
    elapsed = format_duration(line.elapsed_ms)
    if line.outcome == "won":
        return f"{line.rank}. {line.name} won in {elapsed}"
    verb = FINISH_VERBS[line.outcome]
    if stopped_by_host(end, line.outcome, line.elapsed_ms):
        verb = "was stopped by the host after"
    return f"{line.rank}. {line.name} {verb} {elapsed} with {line.progress}/{total} cards home"


def _result_line(
    result: PlayerResult, outcome: str, width: int, total: int, rating: str = ""
) -> str:
    """One line of the ranking; ``rating``: the account's change, padded (or blank)."""
    return (
        f"  {result.rank}. {result.name:<{width}}  {outcome:<8}"
        f"  {result.progress:>3}/{total}  {format_duration(result.elapsed_ms):>9}"
        f"  {result.moves:>4} {'move ' if result.moves == 1 else 'moves'}"
        + (f"  {rating}" if rating else "")
        + ("" if result.decided_by is None else f"  ({PLACED_BY[result.decided_by]})")
    ).rstrip()
