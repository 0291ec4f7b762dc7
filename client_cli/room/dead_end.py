"""The server's word that no card can go home any more (``dead_end``).

The server checks a racer who has had no card home for a while and, when no
sequence of moves can put another card home, says so to that racer alone.
The notice holds only for the position it was found for: any move the racer
makes afterwards (even one that only shuffles) leaves it behind. Resigning
stays the player's choice.
"""

from __future__ import annotations

from typing import Protocol

from protocol import BoardView, DeadEnd, RoomSnapshot

FOUND = "No sequence of moves can put another card home."
PLAIN_NOTICE = f"{FOUND} Type resign to resign, or keep playing."
SCREEN_NOTICE = f"{FOUND} R: resign, or play on."


class Game(Protocol):
    """The player's side of the tracker (`client_cli.room.tracker.Tracker`)."""

    room: RoomSnapshot | None
    board: BoardView | None
    version: int | None
    dead_end: tuple[int, int] | None


def take(game: Game, message: DeadEnd) -> list[str]:
    """Note the notice if it is about the player's current position; its lines."""
    if game.room is None or not _playing(game) or message.version != game.version:
        return []
    game.dead_end = (game.room.race_no, message.version)
    return [PLAIN_NOTICE]


def holds(game: Game) -> bool:
    """Whether the player is still at the position found to be a dead end."""
    if game.room is None or not _playing(game):
        return False
    return game.dead_end == (game.room.race_no, game.version)


def _playing(game: Game) -> bool:
    return game.board is not None and game.board.outcome == "playing"
