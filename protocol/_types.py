"""Field types shared by the schemas, each carrying its wire limits."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from engine import HIDDEN_CARD, VARIANT_KEYS
from protocol import limits


class Model(BaseModel):
    """Base of every wire model.

    Strict: msgpack already gives the right Python types (arrays decode as
    tuples), so nothing is coerced and a wrong type is an error, not a guess.
    """

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")


def _printable(text: str) -> str:
    if not text.isprintable() or text.isspace():
        raise ValueError("must be printable and not blank")
    return text


def _known_variant(key: str) -> str:
    if key not in VARIANT_KEYS:
        raise ValueError(f"unknown variant {key!r}; known: {', '.join(VARIANT_KEYS)}")
    return key


def _text(max_chars: int) -> StringConstraints:
    return StringConstraints(min_length=1, max_length=max_chars)


RequestId = Annotated[int, Field(ge=0, le=limits.MAX_REQUEST_ID)]
"""Chosen by the client, echoed by the reply."""
Seq = Annotated[int, Field(ge=0)]
"""Room event number; 0 means "nothing seen yet"."""
TimeMs = Annotated[int, Field(ge=0)]
"""Server clock, integer milliseconds."""
DurationMs = Annotated[int, Field(ge=0)]
Count = Annotated[int, Field(ge=0)]
Seat = Annotated[int, Field(ge=0, lt=limits.MAX_PLAYERS)]
Version = Annotated[int, Field(ge=0, le=limits.MAX_MOVES)]
"""A game's version: the number of moves applied to it."""
Progress = Annotated[int, Field(ge=0, le=limits.MAX_CARDS)]
Name = Annotated[str, _text(limits.MAX_NAME_CHARS), AfterValidator(_printable)]
AccountName = Annotated[
    str,
    StringConstraints(
        min_length=limits.MIN_ACCOUNT_NAME_CHARS, max_length=limits.MAX_ACCOUNT_NAME_CHARS
    ),
    AfterValidator(_printable),
]
"""An account's name as typed; the server applies the rest of the rules
(docs/accounts.md: normalisation, case folding, confusable characters)."""
AccountKey = Annotated[
    str,
    StringConstraints(
        min_length=limits.MIN_ACCOUNT_KEY_CHARS,
        max_length=limits.MAX_TOKEN_CHARS,
        pattern=r"^[A-Za-z0-9_-]+$",
    ),
]
"""The secret that signs an account in; the server keeps only its hash."""
Rating = Annotated[int, Field(ge=-100_000, le=100_000)]
"""A rating as shown: an integer around 1500 (docs/accounts.md)."""
PageSize = Annotated[int, Field(ge=1, le=limits.MAX_PAGE)]
Text = Annotated[str, StringConstraints(max_length=limits.MAX_MESSAGE_CHARS)]
ClientName = Annotated[str, StringConstraints(max_length=limits.MAX_CLIENT_NAME_CHARS)]
MoveText = Annotated[str, _text(limits.MAX_MOVE_CHARS), AfterValidator(_printable)]
MoveId = Annotated[str, _text(limits.MAX_MOVE_ID_CHARS), AfterValidator(_printable)]
Token = Annotated[
    str,
    StringConstraints(
        min_length=16, max_length=limits.MAX_TOKEN_CHARS, pattern=r"^[A-Za-z0-9_-]+$"
    ),
]
RoomCode = Annotated[
    str,
    StringConstraints(
        min_length=limits.ROOM_CODE_LENGTH,
        max_length=limits.ROOM_CODE_LENGTH,
        pattern=f"^[{limits.ROOM_CODE_ALPHABET}]+$",
    ),
]
ChallengeCode = Annotated[
    str,
    StringConstraints(
        max_length=limits.MAX_VARIANT_CHARS + 20,
        pattern=(
            f"^(?:[{limits.ROOM_CODE_ALPHABET}]{{{limits.ROOM_CODE_LENGTH}}}"
            r"|daily:[a-z0-9-]+:\d{4}-\d{2}-\d{2})$"
        ),
    ),
]
"""A challenge's code: like a room code, or ``daily:<game>:<YYYY-MM-DD>`` for a day's deal."""
DayText = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$")]
"""A UTC day, ``YYYY-MM-DD``."""
VariantKey = Annotated[
    str, StringConstraints(max_length=limits.MAX_VARIANT_CHARS), AfterValidator(_known_variant)
]
Digest = Annotated[str, StringConstraints(min_length=64, max_length=64, pattern=r"^[0-9a-f]+$")]
"""A SHA-256 digest as lower-case hex."""
SeedHex = Annotated[
    str,
    StringConstraints(
        min_length=2, max_length=2 * limits.MAX_SEED_BYTES, pattern=r"^(?:[0-9a-f]{2})+$"
    ),
]
BoardCard = Annotated[
    str, StringConstraints(pattern=r"^(?:[A2-9TJQK][cdhs]|" + re.escape(HIDDEN_CARD) + ")$")
]
"""A card on a board: its text, or `HIDDEN_CARD` where a spectator may not see it yet."""

Role = Literal["player", "spectator"]
Phase = Literal["lobby", "countdown", "racing", "finished"]
GameOutcome = Literal["playing", "won", "stuck"]
"""What the engine says about one game."""
PlayerOutcome = Literal["playing", "won", "stuck", "resigned", "timeout"]
"""Where a player stands in a race."""
FinishOutcome = Literal["won", "stuck", "resigned", "timeout"]
"""How a player's race ended."""
Verdict = Literal["won", "unwinnable", "undecided"]
"""What the solver found for a deal or a position within its budget: a winning
line, a proof that none exists, or neither."""
BotLevel = Literal["beginner", "casual", "good", "strong", "expert"]
"""How well and how fast a bot plays (docs/bots.md)."""
RankReason = Literal["outcome", "finish_time", "progress", "progress_time", "seat"]
"""The comparison that puts a player below the one ranked just above (docs/protocol.md,
"Ranking"): that one won and this one did not; both won, that one earlier; more cards
home; as many, reached earlier; an exact tie, the lower seat."""
