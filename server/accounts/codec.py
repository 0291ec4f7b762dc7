"""History entries as the store keeps them: msgpack arrays in field order.

A packed entry names no field, so an account's 1,000 races stay small (about
60 bytes each instead of 250 as a map). The field order is `HistoryEntry`'s; a
field added later goes at the end and is filled with its default when an older
entry is read.
"""

from __future__ import annotations

from typing import Any

import msgpack

from protocol import HistoryEntry

__all__ = ["pack_history", "unpack_history"]

_FIELDS = tuple(HistoryEntry.model_fields)


def pack_history(entry: HistoryEntry) -> bytes:
    """The stored form of `entry`."""
    packed: bytes = msgpack.packb([getattr(entry, name) for name in _FIELDS])
    return packed


def unpack_history(data: bytes) -> HistoryEntry:
    """The entry `pack_history` stored; a shorter (older) array takes the defaults."""
    values: list[Any] = msgpack.unpackb(data)
    return HistoryEntry.model_validate(dict(zip(_FIELDS, values, strict=False)))
