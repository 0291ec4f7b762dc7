"""What a typed line means: a command word, or a move checked for form locally.

A move is parsed with the engine's own notation before anything is sent, so
a typo gets an answer at once instead of a round trip and a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from bots.levels import Level, parse_level
from client_cli.room.tracker import Tracker
from engine import InvalidMove, Move
from protocol import AddBot, RemoveBot

WORDS = (
    "ready",
    "unready",
    "moves",
    "board",
    "room",
    "resign",
    "end",
    "rematch",
    "challenge",
    "sync",
    "hint",
    "help",
    "quit",
)

HELP = """\
Commands:
  ready / unready   say you are (not) ready; the countdown starts when all are
  <move>            play a move, e.g.  t3 t7   t3:2 t7   t1 f   w f2   r t4   draw
                    recycle   deal   redeal   (t = pile, f = foundation, w = waste,
                    r = reserve; t3:2 moves the top two cards of pile 3)
  moves             list the moves your board allows
  board             show your board (spectators: every player's latest board)
  room              show the room: code, settings, players
  resign            give up this race
  end               host only, during a race: end it now for everyone still racing
  rematch           host only, after a race: back to the lobby
  bot add [LEVEL] [NAME]
                    host, in the lobby: seat a bot the server plays (LEVEL:
                    beginner, casual, good (default), strong, expert or 1-5)
  bot remove SEAT   host, in the lobby: free that bot's seat (#2: bot remove 2)
  challenge         after a race you raced in: make it a challenge others race
                    later against your runs (a code to share)
  sync              fetch the room and your board afresh
  hint              practice rooms: the next move of a winning line, if the
                    server finds one within its budget
  help              this text
  quit              leave (during a race your seat is kept: solrace resume)"""


class CommandError(ValueError):
    """The line is neither a command nor a move; the message says what was expected."""


@dataclass(frozen=True, slots=True)
class Command:
    word: str
    """One of `WORDS`, ``"move"``, or ``""`` for a blank line."""
    move: Move | None = None
    request: AddBot | RemoveBot | None = None
    """For ``bot``: the request, all but its id (0)."""


def parse_command(line: str) -> Command:
    """The command on ``line``; `CommandError` when it is no command and no move."""
    text = line.strip()
    if not text:
        return Command("")
    first, _, rest = text.partition(" ")
    if first.lower() == "bot":
        return Command("bot", request=bot_request(rest.split()))
    if text.lower() in WORDS:
        return Command(text.lower())
    try:
        return Command("move", Move.parse(text))
    except InvalidMove as error:
        raise CommandError(f"{error}. Type help for the commands") from None


BOT_USE = "Type bot add [LEVEL] [NAME] or bot remove SEAT"


def bot_request(words: list[str]) -> AddBot | RemoveBot:
    """The request that ``bot add ...`` or ``bot remove SEAT`` asks for (id 0); SEAT is
    the number the room shows (``#3``: the third seat)."""
    action, *rest = words or [""]
    number = rest[0].removeprefix("#") if len(rest) == 1 else ""
    if action.lower() == "remove" and number.isdigit() and int(number) >= 1:
        return RemoveBot(id=0, seat=int(number) - 1)
    if action.lower() != "add":
        raise CommandError(BOT_USE)
    level: Level = "good"
    if rest:
        try:
            level = parse_level(rest[0])
            rest = rest[1:]
        except ValueError:
            pass
    name = " ".join(rest) or None
    try:
        return AddBot(id=0, level=level, name=name)
    except ValidationError:
        raise CommandError(f"{name!r} cannot be a bot's name. {BOT_USE}") from None


def local_text(word: str, tracker: Tracker, now_ms: int) -> str:
    """What ``help``, ``room``, ``board`` or ``moves`` show, with no request to the server;
    ``now_ms``: the server clock, for the time left."""
    if word == "help":
        return HELP
    if word == "room":
        return tracker.room_text()
    if word == "moves":
        return tracker.moves_text()
    return tracker.board_text(now_ms)
