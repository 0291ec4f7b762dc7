"""The Redis store: what the rest of the server calls to keep rooms, games and events.

`Store` holds the domain verbs (see server.store._store for how they map onto
Redis); the records it returns and the errors it raises are listed here. Every
error is a `StoreError`; `StoreUnavailable` means Redis could not serve the call.
"""

from server.store._feed import FeedEvent, RoomFeed, RoomGap
from server.store._records import DealWin, RatingMove, Recorded, StoredRating
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
    "AlreadyFinished",
    "CommitResult",
    "DealWin",
    "Duplicate",
    "FeedEvent",
    "LoggedMove",
    "MoveCommit",
    "NotFound",
    "PlayerRecord",
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
