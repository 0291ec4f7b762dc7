"""The server's word that no card can go home any more (``dead_end``), in words.

The server checks a racer who has had no card home for a while and, when no
sequence of moves can put another card home, says so to that racer alone.
The notice holds only for the position it was found for (`holds`, see
`protocol.follow`). Resigning stays the player's choice.
"""

from __future__ import annotations

from protocol import DeadEnd
from protocol.follow import Follower
from protocol.follow import dead_end_holds as holds

FOUND = "No sequence of moves can put another card home."
PLAIN_NOTICE = f"{FOUND} Type resign to resign, or keep playing."
SCREEN_NOTICE = f"{FOUND} R: resign, or play on."

__all__ = ["FOUND", "PLAIN_NOTICE", "SCREEN_NOTICE", "holds", "take"]


def take(follower: Follower, message: DeadEnd) -> list[str]:
    """Note the notice if it is about the player's current position; its lines."""
    return [PLAIN_NOTICE] if follower.take_dead_end(message) else []
