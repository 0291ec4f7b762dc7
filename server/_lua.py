"""Lua sources of the store's atomic steps (key layout: `RoomKeys` in server._store_types).

Every script gets the same head so the shared helpers can find what they need:
KEYS[1] is the room hash (fields body, version, seq), KEYS[2] the room's event
stream; ARGV[1] is the room's key base (per-seat keys are built from it), ARGV[2]
the id of the calling store (its process), ARGV[3] the stream's approximate length
cap. Each event is published to every other process watching the room (set
``<base>watchers``) on its own channel ``<base>feed:<process>``; the caller
delivers its own events itself.
Replies are arrays whose first element is a status code (see `Status`).
"""

from enum import IntEnum

from server._store_scripts import Script


class Status(IntEnum):
    """First element of every script reply."""

    OK = 0
    DUPLICATE = 1
    CONFLICT = 2
    FINISHED = 3
    MISSING = 4


_PRELUDE = f"""
local OK, DUPLICATE, CONFLICT, FINISHED, MISSING = {Status.OK}, {Status.DUPLICATE}, \
{Status.CONFLICT}, {Status.FINISHED}, {Status.MISSING}

local function append_event(body)
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], seq .. '-0', 'e', body)
  local message = seq .. '\\n' .. body
  for _, process in ipairs(redis.call('SMEMBERS', ARGV[1] .. 'watchers')) do
    if process ~= ARGV[2] then
      redis.call('PUBLISH', ARGV[1] .. 'feed:' .. process, message)
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

local function seat_keys(seat)
  local base = ARGV[1]
  return {{base .. 'player:' .. seat, base .. 'log:' .. seat, base .. 'ids:' .. seat}}
end

local function room_keys()
  local keys = {{KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1] .. 'watchers'}}
  for _, seat in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    for _, key in ipairs(seat_keys(seat)) do
      keys[#keys + 1] = key
    end
  end
  return keys
end

local function bump_room(expected, body)
  local current = redis.call('HGET', KEYS[1], 'version')
  if not current then
    return nil, {{MISSING}}
  end
  current = tonumber(current)
  if current ~= tonumber(expected) then
    return nil, {{CONFLICT, current}}
  end
  redis.call('HSET', KEYS[1], 'body', body, 'version', current + 1)
  return current + 1
end
"""

# KEYS: room, events, seats, tokens. ARGV[4]: room body.
CREATE_ROOM = Script(
    _PRELUDE
    + """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {DUPLICATE}
end
redis.call('DEL', unpack(room_keys()))
redis.call('HSET', KEYS[1], 'body', ARGV[4], 'version', 0, 'seq', 0)
return {OK}
"""
)

# KEYS: room, events. ARGV[4..]: expected version, body, events...
SAVE_ROOM = Script(
    _PRELUDE
    + """
local version, failure = bump_room(ARGV[4], ARGV[5])
if not version then
  return failure
end
return append_events(6, {OK, version})
"""
)

# KEYS: room, events, seats. ARGV[4..]: expected version, body, start ms, cards home in
# the deal, seat count, seat and state pairs, events...
START_RACE = Script(
    _PRELUDE
    + """
local version, failure = bump_room(ARGV[4], ARGV[5])
if not version then
  return failure
end
for _, seat in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  redis.call('DEL', unpack(seat_keys(seat)))
end
redis.call('DEL', KEYS[3])
local ttl = redis.call('PTTL', KEYS[1])
local count = tonumber(ARGV[8])
for i = 0, count - 1 do
  local seat, player = ARGV[9 + 2 * i], seat_keys(ARGV[9 + 2 * i])[1]
  redis.call('HSET', player, 'state', ARGV[10 + 2 * i], 'version', 0, 'progress', ARGV[7],
    'progress_at_ms', ARGV[6], 'outcome', 'playing')
  redis.call('SADD', KEYS[3], seat)
  if ttl > 0 then
    redis.call('PEXPIRE', player, ttl)
  end
end
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[3], ttl)
end
return append_events(9 + 2 * count, {OK, version})
"""
)

# KEYS: room, events, player, log, ids. ARGV[4..]: expected version, state, log entry,
# move id, now ms, progress, outcome, event.
COMMIT_MOVE = Script(
    _PRELUDE
    + """
local seen = redis.call('HGET', KEYS[5], ARGV[7])
if seen then
  local seq, version = string.match(seen, '(%d+) (%d+)')
  return {DUPLICATE, tonumber(seq), tonumber(version)}
end
local player = redis.call('HMGET', KEYS[3], 'version', 'progress', 'outcome')
if not player[1] then
  return {MISSING}
end
local version = tonumber(player[1])
if player[3] ~= 'playing' then
  return {FINISHED, version}
end
if version ~= tonumber(ARGV[4]) then
  return {CONFLICT, version}
end
version = version + 1
redis.call('HSET', KEYS[3], 'state', ARGV[5], 'version', version, 'outcome', ARGV[10])
if tonumber(player[2]) ~= tonumber(ARGV[9]) then
  redis.call('HSET', KEYS[3], 'progress', ARGV[9], 'progress_at_ms', ARGV[8])
end
if ARGV[10] ~= 'playing' then
  redis.call('HSET', KEYS[3], 'finished_at_ms', ARGV[8])
end
redis.call('RPUSH', KEYS[4], ARGV[6])
local seq = append_event(ARGV[11])
redis.call('HSET', KEYS[5], ARGV[7], seq .. ' ' .. version)
return {OK, seq, version}
"""
)

# KEYS: room, events, player. ARGV[4..]: outcome, now ms, events...
FINISH_PLAYER = Script(
    _PRELUDE
    + """
local outcome = redis.call('HGET', KEYS[3], 'outcome')
if not outcome then
  return {MISSING}
end
if outcome ~= 'playing' then
  return {FINISHED}
end
redis.call('HSET', KEYS[3], 'outcome', ARGV[4], 'finished_at_ms', ARGV[5])
return append_events(6, {OK})
"""
)

# KEYS: room, events, seats, tokens. ARGV[4]: seconds to live, or -1 to keep for good.
# Replies with the token hashes bound to the room, so the caller can expire them too.
EXPIRE_ROOM = Script(
    _PRELUDE
    + """
local tokens = redis.call('SMEMBERS', KEYS[4])
local seconds = tonumber(ARGV[4])
for _, key in ipairs(room_keys()) do
  if seconds < 0 then
    redis.call('PERSIST', key)
  else
    redis.call('EXPIRE', key, seconds)
  end
end
return {OK, unpack(tokens)}
"""
)

SCRIPTS = (CREATE_ROOM, SAVE_ROOM, START_RACE, COMMIT_MOVE, FINISH_PLAYER, EXPIRE_ROOM)
