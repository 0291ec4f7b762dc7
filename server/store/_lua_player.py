"""Scripts of one player's game: commit a move, finish without a move.

Both run on the seat's game record (`player`), so players' moves never contend on
one key; see server.store._lua for the event keys and args they share.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgpack
from redis.typing import EncodableT

from server.store._lua import APPEND_EVENTS, EVENT_ARGS, EVENT_KEYS, PLAYING, EventTarget
from server.store._script import Call, Script
from server.store._types import MoveCommit

_HELPERS = f"local PLAYING = '{PLAYING}'\n" + APPEND_EVENTS

COMMIT_MOVE = Script(
    keys=(*EVENT_KEYS, "player", "log", "ids"),
    args=(
        *EVENT_ARGS,
        *("expected", "state", "entry", "move_id", "now_ms", "progress", "outcome", "event"),
    ),
    # `commit_move` lists the values in this order.
    helpers=_HELPERS,
    body="""
local seen = redis.call('HGET', ids, move_id)
if seen then
  local seq, version = string.match(seen, '(%d+) (%d+)')
  return {DUPLICATE, tonumber(seq), tonumber(version)}
end
local record = redis.call('HMGET', player, 'version', 'progress', 'outcome')
if not record[1] then
  return {MISSING}
end
local version = tonumber(record[1])
if record[3] ~= PLAYING then
  return {FINISHED, version}
end
if version ~= tonumber(expected) then
  return {CONFLICT, version}
end
version = version + 1
local fields = {'state', state, 'version', version, 'outcome', outcome}
if tonumber(record[2]) ~= tonumber(progress) then
  fields[7], fields[8], fields[9], fields[10] = 'progress', progress, 'progress_at_ms', now_ms
end
if outcome ~= PLAYING then
  local n = #fields
  fields[n + 1], fields[n + 2] = 'finished_at_ms', now_ms
end
redis.call('HSET', player, unpack(fields))
redis.call('RPUSH', log, entry)
local seq = append_event(event)
redis.call('HSET', ids, move_id, seq .. ' ' .. version)
return {OK, seq, version}
""",
)


def commit_move(target: EventTarget, move: MoveCommit) -> Call:
    """Store a move unless its id was seen, the version moved on or the race is over.

    Replies OK seq version, DUPLICATE seq version (the earlier result of
    `move.move_id`), CONFLICT version, FINISHED version or MISSING.

    The one place a move becomes the script's KEYS and ARGV, in the order
    `COMMIT_MOVE` declares them; built as lists, with no mapping by name, since
    it runs once per move.
    """
    room = target.room
    player, log, ids = room.seat(move.seat)
    keys = [room.room, room.events, room.watchers, player, log, ids]
    args: list[EncodableT] = [
        target.channel,
        target.maxlen,
        move.expected_version,
        move.state,
        msgpack.packb([move.move_text, move.now_ms, move.move_id]),
        move.move_id,
        move.now_ms,
        move.progress,
        move.outcome,
        move.event,
    ]
    return Call(COMMIT_MOVE, keys, args)


FINISH_PLAYER = Script(
    keys=(*EVENT_KEYS, "player"),
    args=(*EVENT_ARGS, "outcome", "now_ms", "expected"),
    helpers=_HELPERS,
    body="""
local record = redis.call('HMGET', player, 'outcome', 'version')
local current = record[1]
if not current then
  return {MISSING}
end
if current ~= PLAYING then
  return {FINISHED}
end
if tonumber(expected) >= 0 and tonumber(record[2]) ~= tonumber(expected) then
  return {CONFLICT, tonumber(record[2])}
end
redis.call('HSET', player, 'outcome', outcome, 'finished_at_ms', now_ms)
return append_events(ARG_REST + 1, {OK})
""",
)


def finish_player(
    target: EventTarget,
    seat: int,
    *,
    outcome: str,
    now_ms: int,
    expected: int | None = None,
    events: Sequence[bytes],
) -> Call:
    """End the seat's race with `outcome` and append `events`.

    With `expected`, only if the game is still at that version (no move since).
    Replies OK seq..., FINISHED (already over; nothing written), CONFLICT version
    or MISSING.
    """
    if outcome == PLAYING:
        raise ValueError(f"a finished player's outcome cannot be {PLAYING!r}")
    return FINISH_PLAYER.bind(
        target.keys(player=target.room.player(seat)),
        target.args(outcome=outcome, now_ms=now_ms, expected=-1 if expected is None else expected),
        more_args=events,
    )


SCRIPTS = (COMMIT_MOVE, FINISH_PLAYER)
