"""On a Redis Cluster every script must touch one slot: the key layout, checked by slot.

Slots are computed by redis-py's own `key_slot` (the cluster client's), beside the
store's, so a layout that would be refused with CROSSSLOT fails here on one Redis.
"""

from __future__ import annotations

from collections import Counter

import pytest
from redis.crc import key_slot as redis_key_slot

from protocol.limits import ROOM_CODE_ALPHABET
from server.store import MoveCommit
from server.store._keys import (
    ROOM_SHARDS,
    SHARD_TAGS,
    SLOTS,
    StoreKeys,
    deadlines_key,
    key_slot,
    room_shard,
)
from server.store._lua import EventTarget
from server.store._lua_deadline import claim_due, settle
from server.store._lua_player import commit_move, finish_player
from server.store._lua_records import apply_record
from server.store._lua_room import create_room, expire_room, save_room, start_race
from server.store._script import Call
from server.store._store import SCRIPTS

PREFIX = "solrace:"
CODES = ("QX7K2M", "ABCDEF", "ROOM0", "ZZZZZZ", "2345HJ")


def slot_of(key: str) -> int:
    return redis_key_slot(key.encode())


def calls_of(code: str) -> list[Call]:
    """A call of every script the store has, for room `code` (or an account)."""
    names = StoreKeys(PREFIX)
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


def test_the_store_computes_slots_as_redis_py_does() -> None:
    names = StoreKeys(PREFIX)
    keys = [names.room(code).room for code in CODES] + [names.token("ab"), "x{}y", "{a}{b}"]
    assert [key_slot(key) for key in keys] == [slot_of(key) for key in keys]


@pytest.mark.parametrize("code", CODES)
def test_every_script_call_touches_one_slot(code: str) -> None:
    calls = calls_of(code)
    assert {call.script for call in calls} == set(SCRIPTS), "a script has no case here"
    for call in calls:
        assert len({slot_of(key) for key in call.keys}) == 1, call.script.body


@pytest.mark.parametrize("code", CODES)
def test_a_room_its_channels_and_its_deadline_set_share_a_slot(code: str) -> None:
    room = StoreKeys(PREFIX).room(code)
    names = [*room.all_seats(), room.events, room.challenge(3), room.channel("p2")]
    assert {slot_of(name) for name in names} == {slot_of(room.room)}
    assert slot_of(room.deadlines) == slot_of(room.room)
    assert room.deadlines == deadlines_key(PREFIX, room_shard(code))


def test_each_shard_sits_in_its_own_equal_range_of_slots() -> None:
    span = SLOTS // ROOM_SHARDS
    assert [slot_of(f"{{{tag}}}") // span for tag in SHARD_TAGS] == list(range(ROOM_SHARDS))
    assert len(StoreKeys(PREFIX).deadlines) == ROOM_SHARDS


def test_rooms_spread_over_the_shards() -> None:
    pairs = [a + b for a in ROOM_CODE_ALPHABET for b in ROOM_CODE_ALPHABET]
    codes = [f"QX7K{pair}" for pair in pairs] + [f"{number:06d}" for number in range(1024)]
    counts = Counter(room_shard(code) for code in codes)
    assert len(counts) == ROOM_SHARDS
    assert max(counts.values()) <= 2 * min(counts.values())
