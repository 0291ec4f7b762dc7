"""What outlives a room, as text: an account, its race history, a profile, leaderboards.

Pure functions of the protocol's records (`protocol.records`) and a time zone
to show instants in, so the same reply always gives the same table. Columns
are padded to their widest cell, numbers to the right, two spaces apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo

from client_cli.words.describe import sentence
from client_cli.words.ratings import PROVISIONAL
from client_cli.words.render import format_duration
from engine import UnknownVariant, find_variant
from protocol import (
    AccountInfo,
    Error,
    ErrorCode,
    GameRating,
    HistoryEntry,
    LeaderboardReply,
    Profile,
)

ACCOUNT_ERRORS: dict[str, str] = {
    ErrorCode.ACCOUNT_BAD_NAME: "That name cannot be an account's name",
    ErrorCode.ACCOUNT_NAME_TAKEN: "An account has that name already, or one that looks the same",
    ErrorCode.ACCOUNT_BAD_KEY: "The server knows no account with this key",
    ErrorCode.ACCOUNT_NOT_SIGNED_IN: "That needs an account signed in",
    ErrorCode.ACCOUNT_NOT_FOUND: "No account has that name",
    ErrorCode.ACCOUNT_CONFIRM: "That name is not the signed-in account's",
}
"""The account refusals in words, for a server that gives no message."""


def account_error(error: Error) -> str:
    """A refusal from the server in a sentence naming its code: the server's own words,
    or for an account refusal without any, this client's."""
    detail = error.message.strip() or ACCOUNT_ERRORS.get(error.code, "refused")
    return sentence(f"{detail} ({error.code.value})")


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    """``rows`` under ``headers``, indented two spaces; columns in ``right`` flush right."""
    cells = [list(headers), *(list(row) for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    return [
        "  "
        + "  ".join(
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ).rstrip()
        for row in cells
    ]


def game_name(variant: str) -> str:
    """The game's name; its key when this client does not know the game."""
    try:
        return find_variant(variant).name
    except UnknownVariant:
        return variant


def when(at_ms: int, zone: tzinfo) -> str:
    """``2026-12-02 14:05``: an instant of the server clock, in ``zone``."""
    return datetime.fromtimestamp(at_ms / 1000, zone).strftime("%Y-%m-%d %H:%M")


def _cards(entry: HistoryEntry) -> str:
    try:
        return f"{entry.progress}/{find_variant(entry.variant).total}"
    except UnknownVariant:
        return str(entry.progress)


def _rating(entry: HistoryEntry) -> str:
    if entry.rating_before is not None and entry.rating_after is not None:
        return f"{entry.rating_after} {entry.rating_after - entry.rating_before:+d}"
    return "practice" if entry.practice else ""


def history_lines(races: Sequence[HistoryEntry], zone: tzinfo) -> list[str]:
    """A race a line, as given (newest first): when, game, deal, place among the racers,
    outcome, cards home, time, moves, the rating after and its change (or practice), room."""
    if not races:
        return ["  No race yet."]
    headers = ("When", "Game", "Deal", "Place", "Outcome", "Cards", "Time", "Moves", "Rating")
    rows = [
        (
            when(entry.at_ms, zone),
            game_name(entry.variant),
            "secret" if entry.deal_number is None else f"#{entry.deal_number}",
            f"{entry.place}/{entry.racers}",
            entry.outcome,
            _cards(entry),
            format_duration(entry.elapsed_ms),
            str(entry.moves),
            _rating(entry),
            entry.code,
        )
        for entry in races
    ]
    return table((*headers, "Room"), rows, right={3, 5, 6, 7})


def history_text(
    name: str, races: Sequence[HistoryEntry], page: int, more: bool, zone: tzinfo
) -> str:
    """One page of an account's history, with how to ask for the next."""
    head = f"{name}'s races, newest first" + (f", page {page}" if page > 1 or more else "") + ":"
    lines = [head, *history_lines(races, zone)]
    if more:
        lines.append(f"Older races: solrace history {_quoted(name)} --page {page + 1}")
    return "\n".join(lines)


def ratings_lines(ratings: Sequence[GameRating]) -> list[str]:
    """One game a line: the rating shown, the rated races, and whether it is provisional."""
    if not ratings:
        return ["  No rated race yet."]
    rows = [
        (game_name(r.variant), str(r.rating), str(r.races), PROVISIONAL if r.provisional else "")
        for r in ratings
    ]
    return table(("Game", "Rating", "Races", ""), rows, right={1, 2})


def account_text(account: AccountInfo, server: str, zone: tzinfo) -> str:
    """An account as its owner sees it: name, server, since when, ratings per game."""
    head = f"{account.name} on {server}, since {when(account.created_ms, zone)}"
    return "\n".join([head, "Ratings:", *ratings_lines(account.ratings)])


def profile_text(profile: Profile, zone: tzinfo) -> str:
    """A profile: ratings per game, fastest wins of public deals, recent races."""
    lines = [f"{profile.name}, playing since {when(profile.created_ms, zone)}", "Ratings:"]
    lines += ratings_lines(profile.ratings)
    lines.append("Best times (public deals won):")
    if profile.best:
        rows = [
            (
                game_name(b.variant),
                f"#{b.deal_number}",
                format_duration(b.elapsed_ms),
                when(b.at_ms, zone),
            )
            for b in profile.best
        ]
        lines += table(("Game", "Deal", "Time", "When"), rows, right={2})
    else:
        lines.append("  No public deal won yet.")
    lines.append("Recent races:")
    return "\n".join(lines + history_lines(profile.recent, zone))


def leaderboard_text(board: LeaderboardReply, zone: tzinfo) -> str:
    """A game's accounts by rating, or a public deal's fastest wins."""
    game = game_name(board.variant)
    span = f"0 of {board.total}"
    if board.rows:
        span = f"{board.rows[0].place}-{board.rows[-1].place} of {board.total}"
    if board.deal_number is not None:
        return "\n".join(_deal_board(board, board.deal_number, game, span, zone))
    return "\n".join(_rating_board(board, game, span))


def _deal_board(
    board: LeaderboardReply, deal: int, game: str, span: str, zone: tzinfo
) -> list[str]:
    head = f"{game}, public deal {deal}: fastest wins, {span}"
    if not board.rows:
        return [head, f"  Nobody has won public deal {deal} of {game} yet."]
    rows = [
        (
            str(row.place),
            row.name,
            format_duration(row.elapsed_ms or 0),
            "" if row.at_ms is None else when(row.at_ms, zone),
        )
        for row in board.rows
    ]
    return [head, *table(("Place", "Name", "Time", "When"), rows, right={0, 2})]


def _rating_board(board: LeaderboardReply, game: str, span: str) -> list[str]:
    needs = f"{board.min_races} or more rated races"
    head = f"{game}: accounts by rating ({needs}), {span}"
    if not board.rows:
        return [head, f"  Nobody is on this board yet: it takes {needs} of {game}."]
    rows = [
        (
            str(row.place),
            row.name,
            "" if row.rating is None else str(row.rating),
            str(row.races),
            PROVISIONAL if row.provisional else "",
        )
        for row in board.rows
    ]
    return [head, *table(("Place", "Name", "Rating", "Races", ""), rows, right={0, 2, 3})]


def _quoted(name: str) -> str:
    """A name as typed on a command line: quoted when it has a space."""
    return f"'{name}'" if " " in name else name
