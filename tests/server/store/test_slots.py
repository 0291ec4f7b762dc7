"""On a Redis Cluster every script must touch one slot: the key layout, checked by slot.

Slots are computed by redis-py's own `key_slot` (the cluster client's), beside the
store's, so a layout that would be refused with CROSSSLOT fails here on one Redis.
"""

from __future__ import annotations

from collections import Counter

import pytest
from redis.crc import key_slot as redis_key_slot

from protocol.limits import ROOM_CODE_ALPHABET
from server.store._keys import (
    ROOM_SHARDS,
    SHARD_TAGS,
    SLOTS,
    StoreKeys,
    deadlines_key,
    key_slot,
    room_shard,
)
from server.store._store import SCRIPTS
from tests.server.store._calls import CODES, PREFIX, calls_of


def slot_of(key: str) -> int:
    return redis_key_slot(key.encode())


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
