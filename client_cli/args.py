"""The command line: which server, and whether to create, join, watch or resume.

Values are checked here against the protocol's limits, so a bad option gets
a usage message naming it instead of a refusal from the server.
"""

from __future__ import annotations

import argparse
import secrets
from dataclasses import dataclass, field
from typing import Literal

from bots.levels import LEVELS, Level, parse_level
from bots.strategy import BOT_STRATEGIES, DEFAULT_STRATEGY, BotStrategy
from client_cli.records.challenges import add_challenge_commands, create_options
from client_cli.records.options import (
    RecordCommand,
    RecordOptions,
    account_name,
    add_account_choice,
    add_record_commands,
    bounded,
    record_options,
)
from engine import VARIANT_KEYS, VARIANT_OPTIONS
from protocol import Settings
from protocol.limits import (
    MAX_DEAL_NUMBER,
    MAX_NAME_CHARS,
    MAX_PLAYERS,
    MIN_IDLE_LIMIT_S,
    RATE_PER_S,
    ROOM_CODE_ALPHABET,
)

DEFAULT_SERVER = "ws://127.0.0.1:8765"
DEFAULT_BOT_SPEED = 1.0
"""Moves a second: about a person's pace."""
MAX_BOT_SPEED = RATE_PER_S / 2
"""Half the server's request rate, leaving room for a bot's other requests."""
RoomAction = Literal["create", "join", "watch", "resume", "bot", "practice", "challenge", "daily"]
Action = RoomAction | RecordCommand
EXAMPLES = """\
examples:
  solrace create little-forty --name Ada          open a room, get its code
  solrace join ABC234 --name Bob                  take a seat in room ABC234
  solrace watch ABC234                            watch its race
  solrace resume                                  get back in after a drop
  solrace practice little-milligan                race two bots, with hints (H)
  solrace create little-forty --name Ada --bots 2 open a room with two bots in it
  solrace bot ABC234 --name Robo                  seat a bot in room ABC234
  solrace account create Ada                      an account: rooms are entered as Ada
  solrace history                                 your account's races
  solrace leaderboard little-forty                the game's best accounts
  solrace challenge KSJ3FV                        race a challenge against its ghosts
  solrace challenge create                        make a challenge of a race you left
  solrace daily little-forty                      race the deal of the day
  solrace daily --board                           the day's standings and your streak

Once in a room, press ? for the keys and the move notation (t3 t7, w f, draw);
with --plain (line mode), type help for the commands.
Resume tokens (yours, and your bots') are kept as saved seats, a file per room and seat, in
$XDG_STATE_HOME/solrace/rooms (or ~/.local/state/solrace/rooms) while a race is on."""

NAME_HELP = "your name in the room, as a guest (signed in, your account's name is used)"


@dataclass(frozen=True, slots=True)
class Options:
    action: Action
    server: str | None
    """``None``: the saved session's server for ``resume``, else `DEFAULT_SERVER`."""
    name: str = ""
    code: str = ""
    variant: str = ""
    settings: Settings = field(default_factory=Settings)
    plain: bool = False
    """Line mode instead of the full screen."""
    ascii: bool = False
    """Letters instead of suit symbols on the full screen."""
    bots: int = 0
    """Bots to seat in a room this client creates."""
    bot_speed: float = DEFAULT_BOT_SPEED
    """Moves a second, for every bot this command starts."""
    strategy: BotStrategy = DEFAULT_STRATEGY
    level: Level | None = None
    """``--level``: every bot this command starts plays at it; ``None``: `solrace bot`
    plays by ``strategy``, and a room's bots are the default field (`BotTeam`)."""
    account: str | None = None
    """``--account NAME``: which kept account to sign in as (``None``: the one in use)."""
    guest: bool = False
    """``--guest``: enter the room signed out even with an account kept."""
    records: RecordOptions | None = None
    """The options of ``account``, ``history``, ``profile`` and ``leaderboard``."""
    ghosts: tuple[str, ...] = ()
    """``challenge --ghosts NAME,NAME``: the racers whose runs to race (none: the best)."""


def parse_args(argv: list[str] | None = None) -> Options:
    """The options of ``argv`` (default: the process's); exits with usage on an error."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.action == "bot" and bool(args.code) == bool(args.variant):
        parser.error("bot: give a room CODE to join, or --create GAME, not both")
    bots = getattr(args, "bots", 0)
    settings = Settings()
    if args.action in ("create", "bot", "practice"):
        seats = args.players or (bots + 1 if bots else Settings().max_players)
        if seats < bots + 1:
            parser.error(f"--players {seats} leaves no seat for you beside {bots} bots")
        if args.winnable_only and args.deal is not None:
            parser.error("--winnable-only deals from the server's pool; leave --deal out")
        rated = getattr(args, "rated", False)
        if rated and args.deal is not None:
            parser.error("a rated race deals a secret deal; leave --deal out")
        option = "unlimited-redeals" if args.unlimited_redeals else ""
        if option and (
            args.winnable_only or rated or option not in VARIANT_OPTIONS.get(args.variant or "", ())
        ):
            parser.error("--unlimited-redeals is for Little Billie, not winnable-only or rated")
        settings = Settings(
            max_players=seats,
            time_limit_s=args.time_limit,
            spectator_delay_s=args.spectator_delay,
            countdown_s=args.countdown,
            deal_number=args.deal,
            idle_limit_s=args.idle_limit,
            winnable_only=args.winnable_only,
            practice=args.action == "practice",
            rated=rated,
            rule_option=option,
        )
    records: RecordOptions | None = None
    if args.action in ("account", "history", "profile", "leaderboard"):
        records = record_options(args)
    elif args.action == "daily" and args.board:
        records = RecordOptions("daily", json=args.json, game=args.variant, day=args.day)
    elif args.action == "challenge":
        try:
            records = create_options(args)
        except ValueError as error:
            parser.error(str(error))
    return Options(
        action=args.action,
        server=args.server,
        name=getattr(args, "name", "") or "",
        code=getattr(args, "code", "") or "",
        variant=getattr(args, "variant", "") or "",
        settings=settings,
        plain=getattr(args, "plain", False),
        ascii=getattr(args, "ascii", False),
        bots=bots,
        bot_speed=getattr(args, "bot_speed", DEFAULT_BOT_SPEED),
        strategy=getattr(args, "strategy", None) or DEFAULT_STRATEGY,
        level=_level(args),
        account=getattr(args, "account", None),
        guest=getattr(args, "guest", False),
        records=records,
        ghosts=getattr(args, "ghosts", ()),
    )


def _level(args: argparse.Namespace) -> Level | None:
    """The ``--level`` given; for `solrace bot` with neither option, the default level."""
    level: Level | None = getattr(args, "level", None)
    if level is None and args.action == "bot" and args.strategy is None:
        return "good"
    return level


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solrace",
        description="Race friends on the identical deal of a solitaire game.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--server",
        metavar="URL",
        help=f"server address (default: {DEFAULT_SERVER}; for resume, the saved one)",
    )
    parser.add_argument(
        "--account",
        metavar="NAME",
        type=account_name,
        help="which of your accounts on the server to sign in as (default: the one in use)",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    _add_create(actions)
    join = actions.add_parser("join", help="take a seat in a room", description="Join a room.")
    join.add_argument("code", type=room_code, help="the room code the host shared")
    join.add_argument("--name", type=player_name, help=NAME_HELP)
    watch = actions.add_parser("watch", help="watch a room", description="Watch a room's race.")
    watch.add_argument("code", type=room_code, help="the room code")
    watch.add_argument("--name", type=player_name, default="spectator", help=argparse.SUPPRESS)
    resume = actions.add_parser(
        "resume",
        help="get back into a room after a drop",
        description="Get back into a room with its saved token: the only saved seat,"
        " the one in room CODE, or the one you pick.",
    )
    resume.add_argument("code", type=room_code, nargs="?", help="the room to get back into")
    add_bot_commands(actions)
    racing = add_challenge_commands(actions, player_name, room_code, NAME_HELP)
    for action in (join, watch, resume, *racing):
        _add_display(action)
    entering = (join, watch, resume, actions.choices["create"], actions.choices["practice"])
    for action in (*entering, *racing):
        add_account_choice(action)
    add_record_commands(actions)
    return parser


def _add_display(action: argparse.ArgumentParser) -> None:
    action.add_argument(
        "--plain",
        action="store_true",
        help="line mode: typed commands and printed news, for scripts and screen readers",
    )
    action.add_argument(
        "--ascii", action="store_true", help="letters instead of suit symbols (c d h s)"
    )


def _add_create(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    create = actions.add_parser(
        "create", help="open a room and host it", description="Open a room; you host it."
    )
    create.add_argument(
        "variant",
        choices=VARIANT_KEYS,
        metavar="VARIANT",
        help=f"the game to race: {', '.join(VARIANT_KEYS)}",
    )
    create.add_argument("--name", type=player_name, help=NAME_HELP)
    add_room_settings(create)
    create.add_argument(
        "--rated",
        action="store_true",
        help="a race of two or more accounts changes their ratings (a secret deal)",
    )
    add_bots_option(create)
    _add_display(create)


def add_room_settings(command: argparse.ArgumentParser) -> None:
    """The settings a command that opens a room takes."""
    defaults = Settings()
    create = command
    create.add_argument(
        "--deal",
        type=bounded(1, MAX_DEAL_NUMBER),
        metavar="N",
        help="play public deal N (default: a secret random deal)",
    )
    create.add_argument(
        "--winnable-only",
        action="store_true",
        help="a secret deal the server's solver has proven winnable (from its pool)",
    )
    create.add_argument(
        "--unlimited-redeals",
        action="store_true",
        help="Little Billie: redeal without limit until a redeal blocks the game",
    )
    create.add_argument(
        "--players",
        type=bounded(1, MAX_PLAYERS),
        metavar="N",
        help=f"seats in the room, 1-{MAX_PLAYERS} (default: {defaults.max_players},"
        " or you and your bots)",
    )
    create.add_argument(
        "--time-limit",
        type=bounded(60, 3600),
        default=defaults.time_limit_s,
        metavar="S",
        help=f"race length in seconds, 60-3600 (default: {defaults.time_limit_s})",
    )
    create.add_argument(
        "--spectator-delay",
        type=bounded(0, 600),
        default=defaults.spectator_delay_s,
        metavar="S",
        help="seconds spectators see boards late, 0-600 (default: 0)",
    )
    create.add_argument(
        "--idle-limit",
        type=bounded(MIN_IDLE_LIMIT_S, 3600),
        metavar="S",
        help=(
            "once someone has finished, a player with no move for S seconds times out,"
            f" {MIN_IDLE_LIMIT_S}-3600 (default: no idle limit)"
        ),
    )
    create.add_argument(
        "--countdown",
        type=bounded(1, 30),
        default=defaults.countdown_s,
        metavar="S",
        help=f"seconds from all ready to the start, 1-30 (default: {defaults.countdown_s})",
    )


def add_bot_commands(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``bot`` (a bot that joins or creates a room) and ``practice`` (you against bots)."""
    bot = actions.add_parser(
        "bot",
        help="seat a bot in a room",
        description="A bot joins a room (or creates one), races once, prints the results.",
    )
    bot.add_argument("code", type=room_code, nargs="?", help="the room code to join")
    bot.add_argument(
        "--create", dest="variant", choices=VARIANT_KEYS, metavar="GAME", help="open a room"
    )
    bot.add_argument(
        "--name",
        type=player_name,
        default=f"Bot {secrets.randbelow(900) + 100}",
        help="the bot's name (default: Bot and three digits)",
    )
    bot.add_argument(
        "--strategy",
        choices=BOT_STRATEGIES,
        help=(
            "instead of --level (the default: good): careful: greedy plus look-ahead"
            " rearranging; greedy: cards home,"
            " then moves that show or empty; random: any of those; expert: in practice"
            " rooms, the server's hint (a solver's winning line), else careful"
        ),
    )
    bot.add_argument(
        "--speed",
        dest="bot_speed",
        type=speed,
        default=DEFAULT_BOT_SPEED,
        metavar="MOVES_PER_S",
        help=f"pace: a level's think times sped up this many times, or with --strategy"
        f" moves a second; at most {MAX_BOT_SPEED:g} (default: {DEFAULT_BOT_SPEED:g})",
    )
    add_level_option(bot, "the bot's level")
    add_room_settings(bot)
    practice = actions.add_parser(
        "practice",
        help="race bots alone",
        description="A solo race against bots on a fresh deal, in a practice room: ask for"
        " hints (H on the board, hint in line mode).",
    )
    practice.add_argument("variant", choices=VARIANT_KEYS, metavar="GAME", help="the game")
    practice.add_argument("--name", type=player_name, default="You", help="your name")
    add_room_settings(practice)
    add_bots_option(practice, default=2)
    _add_display(practice)


def add_bots_option(command: argparse.ArgumentParser, default: int = 0) -> None:
    command.add_argument(
        "--bots",
        type=bounded(0, MAX_PLAYERS - 1),
        default=default,
        metavar="K",
        help=f"bots to seat in the room (default: {default})",
    )
    field = "one casual bot, the others good" if default else "good"
    add_level_option(command, f"every bot's level (default: {field})")
    command.add_argument(
        "--bot-speed",
        type=speed,
        default=DEFAULT_BOT_SPEED,
        metavar="S",
        help=f"each bot's pace: its level's think times sped up S times (default:"
        f" {DEFAULT_BOT_SPEED})",
    )


def add_level_option(command: argparse.ArgumentParser, what: str) -> None:
    command.add_argument(
        "--level",
        type=level_choice,
        metavar="LEVEL",
        help=f"{what}: {', '.join(LEVELS)} (or 1-{len(LEVELS)}); strong plays fast and"
        " well on what a player sees, expert by the server's hints (practice rooms only)",
    )


def level_choice(text: str) -> Level:
    """An argparse type: a level by name or number."""
    try:
        return parse_level(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def speed(text: str) -> float:
    """An argparse type: moves a second, above 0 and at most `MAX_BOT_SPEED`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= MAX_BOT_SPEED:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most {MAX_BOT_SPEED}")
    return value


def room_code(text: str) -> str:
    code = text.strip().upper()
    if len(code) != 6 or any(char not in ROOM_CODE_ALPHABET for char in code):
        raise argparse.ArgumentTypeError(f"a room code is 6 letters and digits, not {text!r}")
    return code


def player_name(text: str) -> str:
    name = text.strip()
    if not 1 <= len(name) <= MAX_NAME_CHARS or not name.isprintable():
        raise argparse.ArgumentTypeError(f"a name is 1 to {MAX_NAME_CHARS} printable characters")
    return name
