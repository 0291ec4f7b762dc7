"""What the store's event-writing scripts share: named keys and args, Lua helpers.

Every script that writes events declares the room hash (`room`: body, version,
seq), its event stream (`events`) and its watcher set (`watchers`) as KEYS, and
the writer's own channel (`channel`) and the stream's approximate length cap
(`maxlen`) as ARGV. An event takes the room's next seq (HINCRBY), goes into the
stream under the id ``<seq>-0`` and is published as ``<seq>\\n<event>`` on the
channel of every watching process but the writer, which delivers its own events
itself. The channels come from the watcher set (the store adds them); Lua builds
no key or channel name.
"""

from __future__ import annotations

from typing import NamedTuple

from redis.typing import EncodableT

from server.store._keys import RoomKeys

PLAYING = "playing"
"""The outcome of a player whose race is still on."""

EVENT_KEYS = ("room", "events", "watchers")
EVENT_ARGS = ("channel", "maxlen")

APPEND_EVENTS = r"""
local function append_event(body)
  local seq = redis.call('HINCRBY', room, 'seq', 1)
  redis.call('XADD', events, 'MAXLEN', '~', maxlen, seq .. '-0', 'e', body)
  local message = seq .. '\n' .. body
  for _, other in ipairs(redis.call('SMEMBERS', watchers)) do
    if other ~= channel then
      redis.call('PUBLISH', other, message)
    end
  end
  return seq
end

local function append_events(first, reply)
  for i = first, #ARGV do
    reply[#reply + 1] = append_event(ARGV[i])
  end
  return reply
end
"""

BUMP_ROOM = """
local function bump_room(expected_version, new_body)
  local current = redis.call('HGET', room, 'version')
  if not current then
    return nil, {MISSING}
  end
  current = tonumber(current)
  if current ~= tonumber(expected_version) then
    return nil, {CONFLICT, current}
  end
  redis.call('HSET', room, 'body', new_body, 'version', current + 1)
  return current + 1
end
"""


SET_DEADLINE = """
local function set_deadline(member, due)
  if tonumber(due) < 0 then
    redis.call('ZREM', deadlines, member)
  else
    redis.call('ZADD', deadlines, due, member)
  end
end
"""
"""Put the room's next deadline (ms; negative: none) in the ``deadlines`` sorted set."""

NO_DEADLINE = -1


def due_arg(due_ms: int | None) -> int:
    """A deadline as scripts take it: ms, or `NO_DEADLINE`."""
    return NO_DEADLINE if due_ms is None else due_ms


class EventTarget(NamedTuple):
    """Where a script's events go: the room's keys, the writer's channel, the stream cap."""

    room: RoomKeys
    channel: str
    maxlen: int

    def keys(self, **more: str) -> dict[str, str]:
        """The event keys by name, with `more`."""
        room = self.room
        return {"room": room.room, "events": room.events, "watchers": room.watchers, **more}

    def args(self, **more: EncodableT) -> dict[str, EncodableT]:
        """The event args by name, with `more`."""
        return {"channel": self.channel, "maxlen": self.maxlen, **more}
