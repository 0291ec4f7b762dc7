"""Scripts of the deadline sets: claim what is due, settle a room's entry.

A deadline set (``deadlines``: one per shard of rooms, in the shard's slot, see
server.store._keys) holds one entry per room of the shard with a deadline:
member the room code, score the due time in ms. Saving a room writes
its entry (server.store._lua_room). A process claims due entries by moving
their score to a retry time (a lease) in the same step that reads them, so two
processes never claim one entry at once, and an entry whose claimer dies comes
due again at the retry time. Whoever handles an entry settles it afterwards to
the room's next deadline, guarded by the room's version (a newer save has
written the entry already).
"""

from __future__ import annotations

from redis.typing import EncodableT

from server.store._keys import RoomKeys
from server.store._lua import SET_DEADLINE, due_arg
from server.store._script import Call, Script

CLAIM_DUE = Script(
    keys=("deadlines",),
    args=("now", "retry_at", "limit"),
    body="""
local due = redis.call('ZRANGEBYSCORE', deadlines, '-inf', now, 'LIMIT', 0, limit)
for _, member in ipairs(due) do
  redis.call('ZADD', deadlines, 'XX', retry_at, member)
end
return {OK, unpack(due)}
""",
)


def claim_due(deadlines: str, *, now_ms: int, retry_at_ms: int, limit: int) -> Call:
    """Claim at most `limit` entries due by `now_ms`; they come due again at `retry_at_ms`.

    Replies OK code...
    """
    args = {"now": now_ms, "retry_at": retry_at_ms, "limit": limit}
    return CLAIM_DUE.bind({"deadlines": deadlines}, args)


SETTLE = Script(
    keys=("room", "deadlines"),
    args=("code", "expected", "due"),
    helpers=SET_DEADLINE,
    body="""
local current = redis.call('HGET', room, 'version')
if not current then
  redis.call('ZREM', deadlines, code)
  return {MISSING}
end
if tonumber(current) ~= tonumber(expected) then
  return {CONFLICT, tonumber(current)}
end
set_deadline(code, due)
return {OK}
""",
)


def settle(room: RoomKeys, *, expected: int, due_ms: int | None) -> Call:
    """Set the room's entry to `due_ms` (None: drop it) if the room is at `expected`.

    Replies OK, CONFLICT version, or MISSING (the room is gone; its entry is dropped).
    """
    args: dict[str, EncodableT] = {"code": room.code, "expected": expected, "due": due_arg(due_ms)}
    return SETTLE.bind({"room": room.room, "deadlines": room.deadlines}, args)


SCRIPTS = (CLAIM_DUE, SETTLE)
