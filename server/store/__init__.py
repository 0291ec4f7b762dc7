"""The Redis store: what the rest of the server calls to keep rooms, games and events.

`Store` holds the domain verbs (see server.store._store for how they map onto
Redis, and server.store._accounts for accounts); the records it returns and the
errors it raises are listed here. Every error is a `StoreError`; `StoreUnavailable`
means Redis could not serve the call.
"""

from server.store._account_reads import DealLine, HistoryPage, RatingLine, StoredRating
from server.store._accounts import AccountRecord
from server.store._challenges import ChallengeRecord
from server.store._feed import FeedEvent, RoomFeed, RoomGap
from server.store._records import DealWin, RatingMove, Recorded
from server.store._store import Store
from server.store._types import (
    AlreadyFinished,
    CommitResult,
    Duplicate,
    LoggedMove,
    MoveCommit,
    NotFound,
    PlayerRecord,
    RoomRecord,
    StoreError,
    StoreUnavailable,
    TokenBinding,
    VersionConflict,
)

__all__ = [
    "AccountRecord",
    "AlreadyFinished",
    "ChallengeRecord",
    "CommitResult",
    "DealLine",
    "DealWin",
    "Duplicate",
    "FeedEvent",
    "HistoryPage",
    "LoggedMove",
    "MoveCommit",
    "NotFound",
    "PlayerRecord",
    "RatingLine",
    "RatingMove",
    "Recorded",
    "RoomFeed",
    "RoomGap",
    "RoomRecord",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "StoredRating",
    "TokenBinding",
    "VersionConflict",
]
