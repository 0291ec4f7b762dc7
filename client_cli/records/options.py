"""The command line of ``solrace account ...``, ``history``, ``profile`` and ``leaderboard``,
and ``--account`` / ``--guest`` for the commands that enter a room."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from engine import VARIANT_KEYS
from protocol.limits import (
    CHALLENGE_DAYS,
    MAX_ACCOUNT_NAME_CHARS,
    MAX_DEAL_NUMBER,
    MAX_HISTORY,
    MIN_ACCOUNT_NAME_CHARS,
)

PAGE_SIZE = 20
"""History races or leaderboard lines a page."""
MAX_PAGES = MAX_HISTORY // PAGE_SIZE
RecordCommand = Literal["account", "history", "profile", "leaderboard", "daily", "challenge"]
AccountStep = Literal["create", "show", "rename", "delete", "key", "import", "use"]
KEY_HELP = (
    "An account has no password: its key, kept in $XDG_STATE_HOME/solrace/accounts.json"
    " (or ~/.local/state/solrace/accounts.json) and readable by you alone, is the account."
    " Move it to another machine with `solrace account key` here and"
    " `solrace account import` there."
)


@dataclass(frozen=True, slots=True)
class RecordOptions:
    command: RecordCommand
    step: AccountStep | None = None
    """For ``account``: what to do."""
    name: str = ""
    """The account to create, rename to, use, or read (``""``: the one in use)."""
    key: str = ""
    """For ``account import``: the key (``""``: read it from the terminal)."""
    yes: bool = False
    json: bool = False
    game: str = ""
    page: int = 1
    deal: int | None = None
    day: str | None = None
    """For ``daily --board``: the day (``None``: today)."""
    room: str = ""
    """For ``challenge create``: the room raced (``""``: the only saved seat's)."""
    days: int = CHALLENGE_DAYS
    """For ``challenge create``: days the challenge stays open."""
    server: str | None = None
    """For ``challenge create``: ``--server`` as given (``None``: the saved seat's)."""


def record_options(args: argparse.Namespace) -> RecordOptions:
    """The record command in ``args`` (parsed by a parser with `add_record_commands`)."""
    return RecordOptions(
        command=args.action,
        step=getattr(args, "step", None),
        name=getattr(args, "account_name", "") or "",
        key=getattr(args, "key", "") or "",
        yes=getattr(args, "yes", False),
        json=getattr(args, "json", False),
        game=getattr(args, "game", "") or "",
        page=getattr(args, "page", 1),
        deal=getattr(args, "deal", None),
    )


def add_account_choice(command: argparse.ArgumentParser, guest: bool = True) -> None:
    """``--account NAME`` (and ``--guest``) on a command that talks to a server.

    The default is left out of the namespace, so ``solrace --account Ada join ...``
    (before the command) works as well as after it."""
    choice = command.add_mutually_exclusive_group()
    choice.add_argument(
        "--account",
        metavar="NAME",
        type=account_name,
        default=argparse.SUPPRESS,
        help="which of your accounts on this server (default: the one in use)",
    )
    if guest:
        choice.add_argument(
            "--guest",
            action="store_true",
            default=argparse.SUPPRESS,
            help="play as a guest, not signed in (the default until you have an account)",
        )


def add_record_commands(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    _add_account(actions)
    history = actions.add_parser(
        "history",
        help="an account's races, newest first",
        description="An account's races, newest first, 20 a page (a server keeps the last"
        f" {MAX_HISTORY}).",
    )
    _add_reader_name(history)
    history.add_argument("--game", choices=VARIANT_KEYS, metavar="GAME", help="only this game")
    _add_page(history)
    _add_json(history)
    profile = actions.add_parser(
        "profile",
        help="an account's ratings, best times and recent races",
        description="An account's ratings per game, best times and recent races.",
    )
    _add_reader_name(profile)
    _add_json(profile)
    board = actions.add_parser(
        "leaderboard",
        help="a game's best accounts, or a public deal's fastest wins",
        description="A game's accounts by rating (those with enough rated races), or with"
        " --deal the fastest wins of that public deal.",
    )
    board.add_argument("game", choices=VARIANT_KEYS, metavar="GAME", help="the game")
    board.add_argument(
        "--deal", type=bounded(1, MAX_DEAL_NUMBER), metavar="N", help="public deal N"
    )
    _add_page(board)
    _add_json(board)


def _add_account(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    account = actions.add_parser(
        "account",
        help="your accounts: create, show, rename, delete, move a key",
        description="Your accounts on a server (--server). " + KEY_HELP,
    )
    steps = account.add_subparsers(dest="step", required=True, metavar="STEP")
    create = steps.add_parser(
        "create", help="make an account", description="Make an account and keep its key."
    )
    create.add_argument(
        "account_name", metavar="NAME", type=account_name, help=_name_rules("its name")
    )
    show = steps.add_parser("show", help="the account and its ratings")
    _add_json(show)
    rename = steps.add_parser("rename", help="give the account a new name")
    rename.add_argument(
        "account_name", metavar="NEW", type=account_name, help=_name_rules("the new name")
    )
    delete = steps.add_parser(
        "delete",
        help="delete the account, its ratings and history",
        description="Delete the account on the server: its ratings, race history and best"
        " times go with it, for good. Asks first.",
    )
    delete.add_argument("--yes", action="store_true", help="do not ask (for scripts)")
    steps.add_parser(
        "key",
        help="print the key, to move the account to another machine",
        description="Print the account's key. Anyone who has it plays as the account: "
        "give it only to `solrace account import` on another machine of yours.",
    )
    imported = steps.add_parser(
        "import",
        help="keep an account's key printed by `account key` elsewhere",
        description="Keep the key `solrace account key` printed on another machine (signs"
        " in once to check it); the account is then in use here.",
    )
    imported.add_argument("key", nargs="?", help="the key (default: asked for, not shown)")
    use = steps.add_parser("use", help="enter rooms as another of your accounts from now on")
    use.add_argument("account_name", metavar="NAME", type=account_name, help="the account")
    for step in (show, rename, delete, steps.choices["key"]):
        add_account_choice(step, guest=False)


def _add_reader_name(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "account_name",
        metavar="NAME",
        nargs="?",
        type=account_name,
        help="the account (default: yours in use on this server)",
    )
    add_account_choice(command, guest=False)


def _add_page(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--page",
        type=bounded(1, MAX_PAGES),
        default=1,
        metavar="N",
        help=f"page N, {PAGE_SIZE} a page (default: 1)",
    )


def _add_json(command: argparse.ArgumentParser) -> None:
    command.add_argument("--json", action="store_true", help="the server's reply as JSON")


def _name_rules(what: str) -> str:
    return (
        f"{what}: {MIN_ACCOUNT_NAME_CHARS}-{MAX_ACCOUNT_NAME_CHARS} letters or digits,"
        " single - _ . or spaces between; unique on the server"
    )


def account_name(text: str) -> str:
    """An argparse type: an account name of the protocol's length (the server checks the
    rest)."""
    name = text.strip()
    if not MIN_ACCOUNT_NAME_CHARS <= len(name) <= MAX_ACCOUNT_NAME_CHARS or not name.isprintable():
        raise argparse.ArgumentTypeError(
            f"an account name is {MIN_ACCOUNT_NAME_CHARS} to {MAX_ACCOUNT_NAME_CHARS}"
            " printable characters"
        )
    return name


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
