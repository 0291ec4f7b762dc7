"""``solrace challenge CODE`` and ``solrace daily [GAME]`` (race one, as ``join`` does a
room), ``solrace daily --board [GAME]`` (a day's standings) and ``solrace challenge
create [ROOM]`` (a race you were in made a challenge, from its saved seat): the last two
are record commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import tzinfo

from client_cli.link.asking import asking
from client_cli.records.desk import Desk
from client_cli.records.options import RecordOptions, bounded
from client_cli.session.accounts import UnknownAccount
from client_cli.session.resume import pick_seat
from client_cli.words.challenges import challenge_made_text
from engine import VARIANT_KEYS
from protocol import ChallengeCreated, ChallengeInfo, CreateChallenge, DailyBoard, GetDaily
from protocol.limits import CHALLENGE_DAYS, MAX_CHALLENGE_DAYS, MAX_GHOSTS

__all__ = [
    "CREATE",
    "DEFAULT_GAME",
    "add_challenge_commands",
    "create_from_seat",
    "create_options",
    "daily_board",
    "standings_text",
]

DEFAULT_GAME = "little-forty"
CREATE = "create"
"""``solrace challenge create``: the word in the place of a code (a code is never
lower case, so ``CREATE`` stays a code)."""


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
        help="race a challenge (a finished race's deal, against its runs as ghosts), or create one",
        description="Race challenge CODE: its deal, with its best runs as ghosts."
        " Friends join your room by its code and start with you. `challenge create"
        " [ROOM]` makes a challenge of a race you were in and left before its end, with"
        " the seat saved for it (in the room at the end, press c or type challenge).",
    )
    challenge.add_argument(
        "code",
        metavar="CODE",
        type=_code_or_create(code),
        help="the challenge's code, or create",
    )
    challenge.add_argument(
        "room",
        metavar="ROOM",
        nargs="?",
        type=code,
        help="with create: the room of the race (default: your only saved seat's)",
    )
    challenge.add_argument(
        "--days",
        type=bounded(1, MAX_CHALLENGE_DAYS),
        default=CHALLENGE_DAYS,
        metavar="N",
        help=f"with create: days it stays open, 1-{MAX_CHALLENGE_DAYS} (default: {CHALLENGE_DAYS})",
    )
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


def _code_or_create(code: Callable[[str], str]) -> Callable[[str], str]:
    def read(text: str) -> str:
        return CREATE if text.strip() == CREATE else code(text)

    return read


def create_options(args: argparse.Namespace) -> RecordOptions | None:
    """``challenge create``'s options; ``None`` for ``challenge CODE``. `ValueError` for
    a ROOM given without create."""
    if args.code != CREATE:
        if args.room is not None:
            raise ValueError("challenge CODE takes no ROOM (challenge create ROOM does)")
        return None
    return RecordOptions("challenge", room=args.room or "", days=args.days, server=args.server)


async def create_from_seat(desk: Desk, options: RecordOptions) -> int:
    """``solrace challenge create [ROOM]``: the saved seat's race made a challenge (its
    room's code and the seat's token, from outside the room); says its code."""
    if desk.seats is None:
        desk.warn("No saved seats here: challenge create needs the seat kept for the race.")
        return 1
    saved = pick_seat(desk.seats, options.room, options.server, desk.warn, desk.ask)
    if saved is None:
        return 1
    if saved.seat is None:
        desk.warn(f"You watched room {saved.code}: only its racers can make it a challenge.")
        return 1
    async with asking(saved.server) as asker:
        made = CreateChallenge(
            id=asker.next_id(), days=options.days, room=saved.code, token=saved.token
        )
        reply = await asker.ask(made)
    if not isinstance(reply, ChallengeCreated):
        return desk.refused(reply)
    desk.write(challenge_made_text(reply, saved.server))
    return 0


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
