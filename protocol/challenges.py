"""Challenges: a finished race's deal, raced again later against its recorded runs.

These are the values the challenge requests answer with (`protocol.client_messages`,
docs/protocol.md "Challenges", docs/challenges.md). While a challenge is open its
seed and its runs' moves stay secret: a run shows its progress only.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from protocol import limits
from protocol._types import (
    ChallengeCode,
    Count,
    Digest,
    DurationMs,
    FinishOutcome,
    Model,
    Name,
    Progress,
    SeedHex,
    TimeMs,
    VariantKey,
)
from protocol.models import LogEntry


class ChallengeRun(Model):
    """One recorded run of a challenge's deal, as the standings show it."""

    place: Annotated[int, Field(ge=1)]
    """Its place among every run (the ranking of docs/protocol.md, on race-clock times)."""
    name: Name
    guest: bool
    """Raced without an account."""
    original: bool
    """Raced in the race the challenge was made from."""
    outcome: FinishOutcome
    progress: Progress
    progress_ms: DurationMs
    """Race time at which ``progress`` cards were first home."""
    moves: Count
    elapsed_ms: DurationMs
    """Race time at which the run ended."""
    behind_ms: int | None = None
    """Race time this run took, minus the first run's, to reach the highest count of
    cards home both reached (negative: ahead); ``None`` for the first run."""
    log: Annotated[tuple[LogEntry, ...], Field(max_length=limits.MAX_MOVES)] = ()
    """The run's moves with their server stamps; empty while the challenge is open."""


class ChallengeInfo(Model):
    """A challenge as anyone may see it. ``seed`` is set once it has closed."""

    code: ChallengeCode
    variant: VariantKey
    deal_number: Annotated[int, Field(ge=1, le=limits.MAX_DEAL_NUMBER)] | None
    """The public deal it was made from; ``None`` for a secret deal."""
    seed_commit: Digest
    created_ms: TimeMs
    closes_at_ms: TimeMs
    """When it closes (or closed, if the creator closed it earlier)."""
    closed: bool
    seed: SeedHex | None = None
    """The deal's seed, hex; set once ``closed``; its SHA-256 is ``seed_commit``."""
    runs: Annotated[tuple[ChallengeRun, ...], Field(max_length=limits.MAX_CHALLENGE_RUNS)]
    """Best first."""
    total_runs: Count
    """Runs in the standings in all (``runs`` lists the best of them)."""
    practice_runs: Count
    """Runs kept as practice, not in the standings (docs/challenges.md)."""
