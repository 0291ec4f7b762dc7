"""A history entry survives the store's packing, and stays small."""

from __future__ import annotations

import msgpack
from hypothesis import given

from protocol import HistoryEntry
from server.accounts.codec import pack_history, unpack_history
from tests.protocol._strategies import history_entries

ENTRY = HistoryEntry(
    at_ms=1_780_000_000_000,
    variant="little-forty",
    code="ABCDEF",
    race_no=3,
    deal_number=None,
    rated=True,
    practice=False,
    place=2,
    racers=4,
    outcome="won",
    progress=52,
    elapsed_ms=312_456,
    moves=187,
    rating_before=1512,
    rating_after=1526,
)


@given(history_entries)
def test_an_entry_survives_packing(entry: HistoryEntry) -> None:
    assert unpack_history(pack_history(entry)) == entry


def test_a_packed_entry_is_small() -> None:
    assert len(pack_history(ENTRY)) < 80


def test_an_older_shorter_entry_takes_the_defaults() -> None:
    values = msgpack.unpackb(pack_history(ENTRY))[:-2]
    older = unpack_history(msgpack.packb(values))
    assert older.rating_before is None and older.rating_after is None
    assert older.model_copy(update={"rating_before": 1512, "rating_after": 1526}) == ENTRY
