"""The script that records one finished race in one account, exactly once.

Every key it touches is the account's (hash tag ``{a:ID}``, server.store._keys), so
it runs on one slot. The done marker of the race makes a second run change
nothing. A rating is written as the race planned it when the account's rated
races still number what the plan read; when another race was rated in between,
the plan's change is applied to the rating as it is now instead (mu moved by the
plan's difference, sigma scaled by its ratio), so neither race is lost. Ratings
are msgpack ``[mu, sigma, races]``; a whole-number mu or sigma is packed as an
integer (Lua's cmsgpack), so readers take them as floats.
"""

from __future__ import annotations

from server.store._keys import AccountKeys
from server.store._script import Call, Script

APPLY_RECORD = Script(
    keys=("account", "done", "ratings", "history", "best"),
    args=(
        *("variant", "entry", "max_history", "done_s", "rated"),
        *("before_mu", "before_sigma", "before_races", "after_mu", "after_sigma"),
        *("best_field", "best_ms", "best_value"),
    ),
    body="""
if redis.call('EXISTS', account) == 0 or redis.call('HGET', account, 'deleting') == '1' then
  return {MISSING}
end
if redis.call('EXISTS', done) == 1 then
  return {DUPLICATE, redis.call('HGET', ratings, variant)}
end
local rating = false
if rated == '1' then
  local mu, sigma = tonumber(after_mu), tonumber(after_sigma)
  local races = tonumber(before_races) + 1
  local stored = redis.call('HGET', ratings, variant)
  if stored then
    local now = cmsgpack.unpack(stored)
    if tonumber(now[3]) ~= tonumber(before_races) then
      mu = now[1] + (tonumber(after_mu) - tonumber(before_mu))
      sigma = now[2] * (tonumber(after_sigma) / tonumber(before_sigma))
      races = now[3] + 1
    end
  end
  rating = cmsgpack.pack({mu, sigma, races})
  redis.call('HSET', ratings, variant, rating)
end
redis.call('LPUSH', history, entry)
redis.call('LTRIM', history, 0, tonumber(max_history) - 1)
if best_field ~= '' then
  local stored = redis.call('HGET', best, best_field)
  if not stored or tonumber(best_ms) < cmsgpack.unpack(stored)[1] then
    redis.call('HSET', best, best_field, best_value)
  end
end
redis.call('SET', done, '1', 'EX', done_s)
return {OK, rating}
""",
)


def apply_record(
    keys: AccountKeys,
    race: str,
    *,
    variant: str,
    entry: bytes,
    max_history: int,
    done_s: int,
    rating: tuple[tuple[float, float, int], tuple[float, float]] | None,
    best: tuple[str, int, bytes] | None,
) -> Call:
    """Record race `race` in the account: `entry` into its history, `rating` (the
    plan's before (mu, sigma, races) and after (mu, sigma)) and `best` (field,
    elapsed ms, stored value) when given.

    Replies OK rating-or-nil (the rating written), DUPLICATE rating-or-nil (recorded
    before; the game's rating now) or MISSING (no such account, or one being deleted).
    """
    (before_mu, before_sigma, before_races), (after_mu, after_sigma) = rating or ((1, 1, 0), (1, 1))
    best_field, best_ms, best_value = best or ("", 0, b"")
    return APPLY_RECORD.bind(
        {
            "account": keys.account,
            "done": keys.done(race),
            "ratings": keys.ratings,
            "history": keys.history,
            "best": keys.best,
        },
        {
            "variant": variant,
            "entry": entry,
            "max_history": max_history,
            "done_s": done_s,
            "rated": "1" if rating is not None else "0",
            "before_mu": repr(float(before_mu)),
            "before_sigma": repr(float(before_sigma)),
            "before_races": before_races,
            "after_mu": repr(float(after_mu)),
            "after_sigma": repr(float(after_sigma)),
            "best_field": best_field,
            "best_ms": best_ms,
            "best_value": best_value,
        },
    )


SCRIPTS = (APPLY_RECORD,)
