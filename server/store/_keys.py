"""Every Redis key and channel name the store uses, built here and nowhere else.

A room's keys (prefix P, code C) share one hash tag, {T} with T = `room_tag(C)`
(the tag of the room's shard, below), so they live on one slot:

    P{T}:C:room        hash: body (the room), version, seq (last event seq)
    P{T}:C:events      stream, entry id <seq>-0, field e (the event); length capped (~)
    P{T}:C:player:<s>  hash: state, version, progress, progress_at_ms, outcome,
                       finished_at_ms
    P{T}:C:log:<s>     list of moves, each msgpack [text, ms, move id]
    P{T}:C:ids:<s>     hash: move id -> "<seq> <version>"
    P{T}:C:tokens      set of the token hashes bound to the room
    P{T}:C:watchers    set of the channels of the processes that watch the room
    P{T}:C:feed:<id>   pub/sub channel of watching process <id>: "<seq>\\n<event>"

Rooms are spread over `ROOM_SHARDS` shards by a hash of the code (`room_shard`).
Each shard has its own deadline set, P{T}:deadlines, a sorted set of the shard's
room codes scored by the room's next deadline in ms (or by the retry time of a
claim on it); every process claims from every shard. The scripts that save a room
write its entry there, in the room's slot, so no script touches two slots. A tag of
the code alone could not give that: a deadline set shares a slot with its rooms only
if the rooms share the set's tag. The shards' tags are picked so that shard i's slot
lies in the i-th of `ROOM_SHARDS` equal ranges of the 16384 slots: a cluster whose
masters own equal ranges of slots gets an equal share of the shards.

Outside any room: Ptoken:<hash> holds "C <seat>" ("C -" for a spectator),
Prooms is the set of room codes, pruned of expired rooms when counted, and
Pwinnable:<game> is the set of secret seeds of that game the solver has proven
winnable (the pool winnable-only rooms draw from). Each is written by commands of
one key, so each may sit on any slot.

What outlives a room (docs/accounts.md) has no expiry. An account (id A, random
hex) keeps its keys under the hash tag {a:A}, so one script can change them all:

    P{a:A}:account   hash: name, name_key (sha256 hex of the name's key), key (sha256
                     hex of the account key), created_ms, deleting ("1" while
                     `account delete` runs)
    P{a:A}:ratings   hash: game -> msgpack [mu, sigma, rated races]
    P{a:A}:history   list, newest first, of packed `HistoryEntry` (server.accounts.codec),
                     trimmed to `MAX_HISTORY`
    P{a:A}:best      hash: "<game>:<deal number>" -> msgpack [elapsed_ms, at_ms]
    P{a:A}:daily     hash: day (the last UTC day with a ranked daily run), streak
    P{a:A}:done:<R>  string, expiring: race R (room code, race no, start ms) is
                     recorded in this account already

Indexes, each its own tag so they spread over a cluster's slots:

    Pname:{<N>}         string: account id of the account whose name key hashes to N
    Pkey:{<K>}          string: account id of the account key whose sha256 hex is K
    Pboard:{<game>}     sorted set: account ids by rating (those with enough rated races)
    Pdeal:{<game>:<n>}  sorted set: account ids by their fastest win of public deal n (ms)

A challenge (code K, docs/challenges.md) keeps its keys under the hash tag {c:K}, so
one transaction writes them all; they expire together, a retention after it closes:

    P{c:K}:challenge  hash: body (packed `server.challenges.records.Challenge`),
                      closed_ms (set once, when the creator closes it early)
    P{c:K}:runs       hash: run id (sorts in recording order) -> packed
                      `server.challenges.records.Run`, without its moves
    P{c:K}:logs       hash: run id -> the run's moves (packed), read only to show them
    P{c:K}:ranked     hash: account id -> run id of the account's ranked attempt

A day's deal of a game is the challenge K = daily:<game>:<YYYY-MM-DD>, with no
pointer; Pdaily:secret holds the secret its seeds are made from (made once, kept).
The race a challenge was made from points to it from the room's own slot, so a race has
one challenge: P{T}:C:challenge:<race no> holds K (expiring with the challenge).

Seats run from 0 to `SEATS` - 1; scripts that touch every seat's game get the keys
of all of them (`RoomKeys.all_seats`), so each script declares every key it touches.
"""

from __future__ import annotations

import hashlib
from binascii import crc_hqx
from dataclasses import dataclass
from functools import cached_property

from protocol.limits import MAX_PLAYERS

SEATS = MAX_PLAYERS
"""Seats a room can have; per-seat keys exist for seats below this."""
SLOTS = 16384
"""Hash slots of a Redis Cluster."""
ROOM_SHARDS = 32
"""Shards the rooms are spread over: slots that hold rooms, and deadline sets. Fixed:
changing it moves every room to other keys."""


def key_slot(key: str) -> int:
    """The cluster slot of `key`: CRC16 of its hash tag (or of the whole key) mod `SLOTS`."""
    data = key.encode()
    start = data.find(b"{")
    if start >= 0:
        end = data.find(b"}", start + 1)
        if end > start + 1:
            data = data[start + 1 : end]
    return crc_hqx(data, 0) % SLOTS


def _shard_tag(shard: int) -> str:
    """The first of r<shard>.0, r<shard>.1, ... whose slot is in the shard's range."""
    span = SLOTS // ROOM_SHARDS
    attempt = 0
    while key_slot(f"r{shard}.{attempt}") // span != shard:
        attempt += 1
    return f"r{shard}.{attempt}"


SHARD_TAGS = tuple(_shard_tag(shard) for shard in range(ROOM_SHARDS))
"""The hash tag of each shard's keys (without the braces)."""


def room_shard(code: str) -> int:
    """The shard of room `code`: a digest of the code (CRC16 spreads similar codes badly)."""
    digest = hashlib.blake2b(code.encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % ROOM_SHARDS


def room_tag(code: str) -> str:
    """The hash tag (without the braces) of room `code`'s keys."""
    return SHARD_TAGS[room_shard(code)]


@dataclass(frozen=True)
class RoomKeys:
    """Key names of one room; see the module doc for what each holds."""

    prefix: str
    code: str

    @cached_property
    def base(self) -> str:
        return f"{self.prefix}{{{room_tag(self.code)}}}:{self.code}:"

    @property
    def room(self) -> str:
        return self.base + "room"

    @property
    def events(self) -> str:
        return self.base + "events"

    @property
    def tokens(self) -> str:
        return self.base + "tokens"

    @property
    def watchers(self) -> str:
        return self.base + "watchers"

    @property
    def deadlines(self) -> str:
        """The deadline set of the room's shard (shared with the shard's other rooms)."""
        return deadlines_key(self.prefix, room_shard(self.code))

    def channel(self, process: str) -> str:
        """The pub/sub channel on which process `process` hears the room's events."""
        return f"{self.base}feed:{process}"

    def player(self, seat: int) -> str:
        return f"{self.base}player:{seat}"

    def challenge(self, race_no: int) -> str:
        """The code of the challenge made from race `race_no` of the room."""
        return f"{self.base}challenge:{race_no}"

    def log(self, seat: int) -> str:
        return f"{self.base}log:{seat}"

    def ids(self, seat: int) -> str:
        return f"{self.base}ids:{seat}"

    def seat(self, seat: int) -> tuple[str, str, str]:
        """The seat's game record, move log and move ids, in that order."""
        base = self.base
        return (f"{base}player:{seat}", f"{base}log:{seat}", f"{base}ids:{seat}")

    def all_seats(self) -> list[str]:
        """`seat(s)` for every seat in order: three keys per seat."""
        return [key for seat in range(SEATS) for key in self.seat(seat)]


@dataclass(frozen=True)
class StoreKeys:
    """Key names under one prefix: rooms, tokens, the set of room codes."""

    prefix: str

    def room(self, code: str) -> RoomKeys:
        return RoomKeys(self.prefix, code)

    @property
    def rooms(self) -> str:
        return self.prefix + "rooms"

    @property
    def deadlines(self) -> tuple[str, ...]:
        """The deadline set of every shard, by shard."""
        return tuple(deadlines_key(self.prefix, shard) for shard in range(ROOM_SHARDS))

    def token(self, token_hash: str) -> str:
        return f"{self.prefix}token:{token_hash}"

    def winnable(self, variant: str) -> str:
        """The set of proven-winnable secret seeds of game `variant`."""
        return f"{self.prefix}winnable:{variant}"

    def account(self, account_id: str) -> AccountKeys:
        return AccountKeys(self.prefix, account_id)

    @property
    def index(self) -> IndexKeys:
        return IndexKeys(self.prefix)

    def challenge(self, code: str) -> ChallengeKeys:
        return ChallengeKeys(self.prefix, code)

    @property
    def daily_secret(self) -> str:
        """The server's secret of daily deals (random bytes, made once, never shown)."""
        return self.prefix + "daily:secret"


@dataclass(frozen=True)
class AccountKeys:
    """Key names of one account; see the module doc for what each holds."""

    prefix: str
    account_id: str

    @cached_property
    def base(self) -> str:
        return f"{self.prefix}{{a:{self.account_id}}}:"

    @property
    def account(self) -> str:
        return self.base + "account"

    @property
    def ratings(self) -> str:
        return self.base + "ratings"

    @property
    def history(self) -> str:
        return self.base + "history"

    @property
    def best(self) -> str:
        return self.base + "best"

    @property
    def daily(self) -> str:
        return self.base + "daily"

    def done(self, race: str) -> str:
        """The marker that race `race` is recorded in this account."""
        return f"{self.base}done:{race}"


@dataclass(frozen=True)
class ChallengeKeys:
    """Key names of one challenge; see the module doc for what each holds."""

    prefix: str
    code: str

    @cached_property
    def base(self) -> str:
        return f"{self.prefix}{{c:{self.code}}}:"

    @property
    def challenge(self) -> str:
        return self.base + "challenge"

    @property
    def runs(self) -> str:
        return self.base + "runs"

    @property
    def logs(self) -> str:
        return self.base + "logs"

    @property
    def ranked(self) -> str:
        return self.base + "ranked"


@dataclass(frozen=True)
class IndexKeys:
    """Key names of the indexes across accounts; see the module doc."""

    prefix: str

    def name(self, name_digest: str) -> str:
        """Which account holds the name whose name key hashes (sha256 hex) to `name_digest`."""
        return f"{self.prefix}name:{{{name_digest}}}"

    def key(self, key_digest: str) -> str:
        """Which account the key whose sha256 hex is `key_digest` signs in."""
        return f"{self.prefix}key:{{{key_digest}}}"

    def board(self, variant: str) -> str:
        """The rating leaderboard of game `variant`."""
        return f"{self.prefix}board:{{{variant}}}"

    def deal(self, variant: str, deal_number: int) -> str:
        """The fastest wins of public deal `deal_number` of game `variant`."""
        return f"{self.prefix}deal:{{{variant}:{deal_number}}}"


def deadlines_key(prefix: str, shard: int) -> str:
    """The shard's sorted set of room deadlines: member room code, score due time in ms."""
    return f"{prefix}{{{SHARD_TAGS[shard]}}}:deadlines"
