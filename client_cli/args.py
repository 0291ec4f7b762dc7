"""The command line: which server, and whether to create, join, watch or resume.

Values are checked here against the protocol's limits, so a bad option gets
a usage message naming it instead of a refusal from the server.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from engine import VARIANT_KEYS
from protocol import Settings
from protocol.limits import MAX_DEAL_NUMBER, MAX_NAME_CHARS, MAX_PLAYERS, ROOM_CODE_ALPHABET

DEFAULT_SERVER = "ws://127.0.0.1:8765"
Action = Literal["create", "join", "watch", "resume"]
EXAMPLES = """\
examples:
  solrace create little-forty --name Ada          open a room, get its code
  solrace join ABC234 --name Bob                  take a seat in room ABC234
  solrace watch ABC234                            watch its race
  solrace resume                                  get back in after a drop

Once in a room, press ? for the keys and the move notation (t3 t7, w f, draw);
with --plain (line mode), type help for the commands.
The resume token is kept in $XDG_STATE_HOME/solrace (or ~/.local/state/solrace)."""


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


def parse_args(argv: list[str] | None = None) -> Options:
    """The options of ``argv`` (default: the process's); exits with usage on an error."""
    args = build_parser().parse_args(argv)
    settings = Settings()
    if args.action == "create":
        settings = Settings(
            max_players=args.players,
            time_limit_s=args.time_limit,
            spectator_delay_s=args.spectator_delay,
            countdown_s=args.countdown,
            deal_number=args.deal,
        )
    return Options(
        action=args.action,
        server=args.server,
        name=getattr(args, "name", "") or "",
        code=getattr(args, "code", ""),
        variant=getattr(args, "variant", ""),
        settings=settings,
        plain=args.plain,
        ascii=args.ascii,
    )


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
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    _add_create(actions)
    join = actions.add_parser("join", help="take a seat in a room", description="Join a room.")
    join.add_argument("code", type=room_code, help="the room code the host shared")
    join.add_argument("--name", type=player_name, required=True, help="your name in the room")
    watch = actions.add_parser("watch", help="watch a room", description="Watch a room's race.")
    watch.add_argument("code", type=room_code, help="the room code")
    watch.add_argument("--name", type=player_name, default="spectator", help=argparse.SUPPRESS)
    resume = actions.add_parser(
        "resume",
        help="get back into the last room joined",
        description="Get back into the room you last joined, with the saved token.",
    )
    for action in (join, watch, resume):
        _add_display(action)
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
    defaults = Settings()
    create = actions.add_parser(
        "create", help="open a room and host it", description="Open a room; you host it."
    )
    create.add_argument(
        "variant",
        choices=VARIANT_KEYS,
        metavar="VARIANT",
        help=f"the game to race: {', '.join(VARIANT_KEYS)}",
    )
    create.add_argument("--name", type=player_name, required=True, help="your name in the room")
    create.add_argument(
        "--deal",
        type=bounded(1, MAX_DEAL_NUMBER),
        metavar="N",
        help="play public deal N (default: a secret random deal)",
    )
    create.add_argument(
        "--players",
        type=bounded(1, MAX_PLAYERS),
        default=defaults.max_players,
        metavar="N",
        help=f"seats in the room, 1-{MAX_PLAYERS} (default: {defaults.max_players})",
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
        "--countdown",
        type=bounded(1, 30),
        default=defaults.countdown_s,
        metavar="S",
        help=f"seconds from all ready to the start, 1-30 (default: {defaults.countdown_s})",
    )
    _add_display(create)


def bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {value}")
        return value

    return parse


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
