"""What a player reads while the connection is down, and when the client gives up."""

from __future__ import annotations

from client_cli.link.outage import Outage
from protocol import ClientMessage, MakeMove, Ready, Resume


def test_the_player_hears_every_fifteen_seconds_that_the_client_still_tries() -> None:
    said: list[str] = []
    outage = Outage(said.append)
    for waited in (0.0, 0.25, 5.0, 14.9, 15.0, 20.0, 30.1):
        outage._still_down(waited)
    assert said == [
        "Still reconnecting after 15 seconds...",
        "Still reconnecting after 30 seconds...",
    ]


def test_giving_up_names_everything_left_unsent() -> None:
    said: list[str] = []
    waiting: list[ClientMessage] = [
        Resume(id=1, token="t" * 24, last_seq=3),
        MakeMove(id=2, move="t3 t7", move_id="m1", expected_version=4),
        Ready(id=3, ready=True),
    ]
    Outage(said.append).give_up(waiting)
    assert said == [
        "Could not reconnect for 3 minutes. Try later: solrace resume",
        "Not sent: move t3 t7.",
        "Not sent: your ready.",
    ]
