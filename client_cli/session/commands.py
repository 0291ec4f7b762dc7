"""What a typed line means: a command word, or a move checked for form locally.

A move is parsed with the engine's own notation before anything is sent, so
a typo gets an answer at once instead of a round trip and a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

from client_cli.room.tracker import Tracker
from engine import InvalidMove, Move

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


def parse_command(line: str) -> Command:
    """The command on ``line``; `CommandError` when it is no command and no move."""
    text = line.strip()
    if not text:
        return Command("")
    if text.lower() in WORDS:
        return Command(text.lower())
    try:
        return Command("move", Move.parse(text))
    except InvalidMove as error:
        raise CommandError(f"{error}. Type help for the commands") from None


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
