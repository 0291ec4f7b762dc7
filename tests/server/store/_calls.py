"""A call of every script the store has, bound for one room (or an account)."""

from __future__ import annotations

from server.store import MoveCommit
from server.store._keys import StoreKeys
from server.store._lua import EventTarget
from server.store._lua_deadline import claim_due, settle
from server.store._lua_player import commit_move, finish_player
from server.store._lua_records import apply_record
from server.store._lua_room import create_room, expire_room, save_room, start_race
from server.store._script import Call

PREFIX = "solrace:"
CODES = ("QX7K2M", "ABCDEF", "ROOM0", "ZZZZZZ", "2345HJ")


def calls_of(code: str, prefix: str = PREFIX) -> list[Call]:
    """A call of every script the store has, for room `code` (or an account)."""
    names = StoreKeys(prefix)
    room = names.room(code)
    target = EventTarget(room, room.channel("p1"), 100)
    move = MoveCommit(code, 1, 3, b"state", "t1 t2", "m1", 2_000, 4, "playing", b"moved")
    return [
        create_room(room, body=b"lobby"),
        save_room(target, expected=0, body=b"room", due_ms=5_000, events=[b"e"]),
        start_race(
            target,
            expected=1,
            body=b"racing",
            start_ms=1_000,
            progress=0,
            due_ms=9_000,
            players={0: b"deal", 1: b"deal"},
            events=[b"start"],
        ),
        expire_room(room, seconds=60),
        commit_move(target, move),
        finish_player(target, 0, outcome="resigned", now_ms=3_000, events=[b"over"]),
        settle(room, expected=2, due_ms=None),
        claim_due(room.deadlines, now_ms=1, retry_at_ms=2, limit=10),
        apply_record(
            names.account("a1b2"),
            f"{code}:1:1000",
            variant="klondike",
            entry=b"entry",
            max_history=10,
            done_s=60,
            rating=None,
            best=None,
        ),
    ]
