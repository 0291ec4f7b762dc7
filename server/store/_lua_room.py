"""Scripts of a room as a whole: create, save, start a race, expire.

Create, start and expire touch every seat's game keys, so they take the keys of
all `SEATS` seats after their named keys (three per seat, `RoomKeys.seat` order);
see server.store._lua for the event keys and args. Save and start also write the
room's next deadline (`due`, ms; negative: none) into the ``deadlines`` sorted
set of the room's shard (in the room's slot) in the same step, so the set never
disagrees with the room.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from redis.typing import EncodableT

from server.store._keys import SEATS, RoomKeys
from server.store._lua import (
    APPEND_EVENTS,
    BUMP_ROOM,
    EVENT_ARGS,
    EVENT_KEYS,
    PLAYING,
    SET_DEADLINE,
    EventTarget,
    due_arg,
)
from server.store._script import Call, Script

CREATE_ROOM = Script(
    keys=("room", "events", "tokens", "watchers"),
    args=("body",),
    body="""
if redis.call('EXISTS', room) == 1 then
  return {DUPLICATE}
end
redis.call('DEL', unpack(KEYS))
redis.call('HSET', room, 'body', body, 'version', 0, 'seq', 0)
return {OK}
""",
)


def create_room(room: RoomKeys, *, body: bytes) -> Call:
    """A new room at version 0, leftovers of an expired namesake cleared; DUPLICATE if taken."""
    keys = {"room": room.room, "events": room.events, "tokens": room.tokens}
    return CREATE_ROOM.bind(
        {**keys, "watchers": room.watchers}, {"body": body}, more_keys=room.all_seats()
    )


SAVE_ROOM = Script(
    keys=(*EVENT_KEYS, "deadlines"),
    args=(*EVENT_ARGS, "expected", "body", "code", "due"),
    helpers=APPEND_EVENTS + BUMP_ROOM + SET_DEADLINE,
    body="""
local version, failure = bump_room(expected, body)
if not version then
  return failure
end
set_deadline(code, due)
return append_events(ARG_REST + 1, {OK, version})
""",
)


def save_room(
    target: EventTarget,
    *,
    expected: int,
    body: bytes,
    due_ms: int | None,
    events: Sequence[bytes],
) -> Call:
    """Replace the room, set its deadline, append `events`.

    Replies OK version seq..., CONFLICT version or MISSING.
    """
    room = target.room
    args = target.args(expected=expected, body=body, code=room.code, due=due_arg(due_ms))
    return SAVE_ROOM.bind(target.keys(deadlines=room.deadlines), args, more_args=events)


START_RACE = Script(
    keys=(*EVENT_KEYS, "deadlines"),
    args=(*EVENT_ARGS, "expected", "body", "start_ms", "progress", "seat_count", "code", "due"),
    helpers=f"local PLAYING = '{PLAYING}'\n" + APPEND_EVENTS + BUMP_ROOM + SET_DEADLINE,
    body="""
local version, failure = bump_room(expected, body)
if not version then
  return failure
end
set_deadline(code, due)
redis.call('DEL', unpack(KEYS, KEY_REST + 1))
local ttl = redis.call('PTTL', room)
local count = tonumber(seat_count)
for i = 1, count do
  local seat = tonumber(ARGV[ARG_REST + 2 * i - 1])
  local player = KEYS[KEY_REST + 3 * seat + 1]
  redis.call('HSET', player, 'state', ARGV[ARG_REST + 2 * i], 'version', 0,
    'progress', progress, 'progress_at_ms', start_ms, 'outcome', PLAYING)
  if ttl > 0 then
    redis.call('PEXPIRE', player, ttl)
  end
end
return append_events(ARG_REST + 2 * count + 1, {OK, version})
""",
)


def start_race(
    target: EventTarget,
    *,
    expected: int,
    body: bytes,
    start_ms: int,
    progress: int,
    due_ms: int | None,
    players: Mapping[int, bytes],
    events: Sequence[bytes],
) -> Call:
    """Save the room, drop every seat's game and deal `players` (seat -> state) fresh ones.

    After the named args come the seat and state pairs, then the events. Replies
    like `save_room`.
    """
    pairs: list[EncodableT] = []
    for seat, state in players.items():
        if not 0 <= seat < SEATS:
            raise ValueError(f"seat {seat} is not in 0..{SEATS - 1}")
        pairs += [seat, state]
    room = target.room
    args = target.args(
        expected=expected,
        body=body,
        start_ms=start_ms,
        progress=progress,
        seat_count=len(players),
        code=room.code,
        due=due_arg(due_ms),
    )
    return START_RACE.bind(
        target.keys(deadlines=room.deadlines),
        args,
        more_keys=room.all_seats(),
        more_args=[*pairs, *events],
    )


EXPIRE_ROOM = Script(
    keys=("room", "events", "tokens", "watchers"),
    args=("seconds",),
    body="""
local bound = redis.call('SMEMBERS', tokens)
local ttl = tonumber(seconds)
for _, key in ipairs(KEYS) do
  if ttl < 0 then
    redis.call('PERSIST', key)
  else
    redis.call('EXPIRE', key, ttl)
  end
end
return {OK, unpack(bound)}
""",
)


def expire_room(room: RoomKeys, *, seconds: int | None) -> Call:
    """Give every key of the room `seconds` to live (None: keep them); replies OK token-hash...

    The token keys themselves live outside the room's slot: the caller expires them.
    """
    keys = {"room": room.room, "events": room.events, "tokens": room.tokens}
    return EXPIRE_ROOM.bind(
        {**keys, "watchers": room.watchers},
        {"seconds": -1 if seconds is None else seconds},
        more_keys=room.all_seats(),
    )


SCRIPTS = (CREATE_ROOM, SAVE_ROOM, START_RACE, EXPIRE_ROOM)
