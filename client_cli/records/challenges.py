"""``solrace challenge CODE`` and ``solrace daily [GAME]`` (race one, as ``join`` does a
room) and ``solrace daily --board [GAME]`` (a day's standings, a record command)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import tzinfo

from client_cli.link.asking import asking
from client_cli.records.desk import Desk
from client_cli.records.options import RecordOptions
from client_cli.session.accounts import UnknownAccount
from engine import VARIANT_KEYS
from protocol import ChallengeInfo, DailyBoard, GetDaily
from protocol.limits import MAX_GHOSTS

__all__ = ["DEFAULT_GAME", "add_challenge_commands", "daily_board", "standings_text"]

DEFAULT_GAME = "little-forty"


def add_challenge_commands(
    actions: argparse._SubParsersAction[argparse.ArgumentParser],
    name: Callable[[str], str],
    code: Callable[[str], str],
    name_help: str,
) -> list[argparse.ArgumentParser]:
    """The two commands (`name` and `code` read a player name and a code); returns
    them, for the display and account options."""
    challenge = actions.add_parser(
        "challenge",
        help="race a challenge: a finished race's deal, against its runs as ghosts",
        description="Race challenge CODE: its deal, with its best runs as ghosts."
        " Friends join your room by its code and start with you.",
    )
    challenge.add_argument("code", metavar="CODE", type=code, help="the challenge's code")
    challenge.add_argument("--name", type=name, help=name_help)
    challenge.add_argument(
        "--ghosts",
        type=_names(name),
        default=(),
        metavar="NAME,NAME",
        help="race these racers' runs (each one's best) instead of the best runs",
    )
    daily = actions.add_parser(
        "daily",
        help="race the deal of the day, or --board: its standings",
        description="Race today's deal of GAME (UTC day), against the day's best runs"
        " as ghosts; one ranked attempt a game a day. --board shows the standings.",
    )
    daily.add_argument(
        "variant", nargs="?", default=DEFAULT_GAME, choices=VARIANT_KEYS, metavar="GAME"
    )
    daily.add_argument("--board", action="store_true", help="the day's standings")
    daily.add_argument("--day", metavar="YYYY-MM-DD", help="with --board: another day")
    daily.add_argument("--json", action="store_true", help="with --board: the reply as JSON")
    daily.add_argument("--name", type=name, help=name_help)
    return [challenge, daily]


def _names(name: Callable[[str], str]) -> Callable[[str], tuple[str, ...]]:
    """Reads ``NAME,NAME``: each a player name, at most `MAX_GHOSTS` of them."""

    def read(text: str) -> tuple[str, ...]:
        names = tuple(name(part) for part in text.split(","))
        if len(names) > MAX_GHOSTS:
            raise argparse.ArgumentTypeError(f"at most {MAX_GHOSTS} ghosts")
        return names

    return read


async def daily_board(desk: Desk, options: RecordOptions) -> int:
    """``solrace daily --board``: the day's standings, and your streak when signed in."""
    try:
        key: str | None = desk.account().key
    except UnknownAccount:
        key = None
    async with asking(desk.server, key) as asker:
        reply = await asker.ask(GetDaily(id=asker.next_id(), variant=options.game, day=options.day))
    if not isinstance(reply, DailyBoard):
        return desk.refused(reply)
    if options.json:
        desk.write(reply.model_dump_json(exclude={"id"}))
        return 0
    desk.write(f"Deal of {reply.day}, {options.game}:")
    desk.write(standings_text(reply.challenge, desk.zone))
    if reply.streak is not None:
        days = "1 day" if reply.streak == 1 else f"{reply.streak} days"
        desk.write(f"Your daily streak: {days}.")
    return 0


def standings_text(info: ChallengeInfo, zone: tzinfo) -> str:
    """A challenge's standings as lines: place, name, outcome, cards home, time, gap."""
    del zone
    state = "closed, seed " + (info.seed or "") if info.closed else "open"
    lines = [f"Challenge {info.code} ({state}), commitment {info.seed_commit[:16]}..."]
    if not info.runs:
        lines.append("No runs yet.")
    for run in info.runs:
        who = run.name + (" (guest)" if run.guest else "")
        gap = "" if run.behind_ms is None else f", {_gap(run.behind_ms)}"
        lines.append(
            f"{run.place:>3}. {who}: {run.outcome}, {run.progress} cards home,"
            f" {run.elapsed_ms / 1000:.1f} s{gap}"
        )
    lines.append(f"{info.total_runs} ranked runs, {info.practice_runs} practice.")
    return "\n".join(lines)


def _gap(behind_ms: int) -> str:
    side = "behind" if behind_ms >= 0 else "ahead"
    return f"{side} by {abs(behind_ms) / 1000:.1f} s at the same cards home"
