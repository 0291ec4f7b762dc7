"""The store's accounts on a real Valkey: names claimed once, keys, renames, deletes, reads."""

from __future__ import annotations

import asyncio
import hashlib

import msgpack
import pytest
from redis.asyncio import Redis

from server.store import Store, StoredRating

pytestmark = pytest.mark.every_backend

GAME = "little-forty"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


async def make(store: Store, account_id: str, name: str, created_ms: int = 5) -> bool:
    return await store.create_account(
        account_id, name, digest(name.lower()), digest(f"key of {account_id}"), created_ms
    )


async def keys_under(raw: Redis, prefix: str) -> set[str]:
    return {key.decode() async for key in raw.scan_iter(match=prefix + "*", count=1000)}


async def test_an_account_is_found_by_its_key_and_by_its_name(store: Store) -> None:
    assert await make(store, "a1", "Ada", created_ms=42)
    by_key = await store.account_by_key(digest("key of a1"))
    by_name = await store.account_by_name(digest("ada"))
    assert by_key == by_name
    assert by_key is not None
    assert (by_key.account_id, by_key.name, by_key.created_ms) == ("a1", "Ada", 42)
    assert await store.load_account("a1") == by_key
    assert await store.account_by_key(digest("another key")) is None
    assert await store.account_by_name(digest("bob")) is None


async def test_a_name_is_held_by_one_account(store: Store, raw: Redis, key_prefix: str) -> None:
    assert await make(store, "a1", "Ada")
    before = await keys_under(raw, key_prefix)
    assert not await make(store, "a2", "ADA")
    assert await keys_under(raw, key_prefix) == before  # nothing of a2 is left
    assert await store.load_account("a2") is None


async def test_a_claim_whose_account_never_came_is_taken_over(store: Store, raw: Redis) -> None:
    await raw.set(store._names.index.name(digest("ada")), "crashed")
    assert await make(store, "a1", "Ada")
    found = await store.account_by_name(digest("ada"))
    assert found is not None
    assert found.account_id == "a1"


async def test_a_claim_left_by_a_rename_that_crashed_is_free(store: Store, raw: Redis) -> None:
    assert await make(store, "a1", "Ada")
    await raw.set(store._names.index.name(digest("bob")), "a1")  # a1 is still named Ada
    assert await make(store, "a2", "Bob")
    found = await store.account_by_name(digest("bob"))
    assert found is not None
    assert found.account_id == "a2"


async def test_rename_claims_the_new_name_and_frees_the_old(store: Store) -> None:
    assert await make(store, "a1", "Ada")
    assert await store.rename_account("a1", "Grace", digest("grace"))
    assert await store.account_by_name(digest("ada")) is None
    found = await store.account_by_name(digest("grace"))
    assert found is not None
    assert (found.account_id, found.name) == ("a1", "Grace")
    assert await make(store, "a2", "Ada")


async def test_rename_to_a_taken_name_changes_nothing(store: Store) -> None:
    assert await make(store, "a1", "Ada")
    assert await make(store, "a2", "Bob")
    assert not await store.rename_account("a1", "Bob", digest("bob"))
    found = await store.load_account("a1")
    assert found is not None
    assert found.name == "Ada"
    bob = await store.account_by_name(digest("bob"))
    assert bob is not None
    assert bob.account_id == "a2"


async def test_rename_to_another_case_keeps_the_claim(store: Store) -> None:
    assert await make(store, "a1", "Ada")
    assert await store.rename_account("a1", "ADA", digest("ada"))
    found = await store.account_by_name(digest("ada"))
    assert found is not None
    assert found.name == "ADA"


async def stand_in_for_races(raw: Redis, store: Store, account_id: str, score: float) -> None:
    """What rated races leave for an account: ratings, history, best times, boards, markers."""
    keys, index = store._names.account(account_id), store._names.index
    await raw.hset(keys.ratings, mapping={GAME: msgpack.packb([30.0, 2.0, 7]), "klondike": b"x"})
    await raw.lpush(keys.history, b"race 1", b"race 2")
    await raw.hset(keys.best, f"{GAME}:17", msgpack.packb([61_000, 1_000]))
    await raw.set(keys.done("QX7K2M:1:1000"), "1", ex=86400)
    await raw.zadd(index.board(GAME), {account_id: score})
    await raw.zadd(index.board("klondike"), {account_id: score})
    await raw.zadd(index.deal(GAME, 17), {account_id: 61_000})


async def test_delete_removes_every_key_and_board_entry_of_the_account(
    store: Store, raw: Redis, key_prefix: str
) -> None:
    assert await make(store, "a1", "Ada")
    assert await make(store, "a2", "Bob")
    await stand_in_for_races(raw, store, "a1", 24.0)
    await stand_in_for_races(raw, store, "a2", 12.0)
    before = await keys_under(raw, key_prefix)
    assert any("a:a1" in key for key in before)

    await store.delete_account("a1")

    after = await keys_under(raw, key_prefix)
    assert not any("a:a1" in key for key in after)
    index = store._names.index
    own = {key for key in before if "{a:a1}" in key}
    assert before - after == own | {index.name(digest("ada")), index.key(digest("key of a1"))}
    for board in (index.board(GAME), index.board("klondike"), index.deal(GAME, 17)):
        assert await raw.zrange(board, 0, -1) == [b"a2"]
    assert await store.account_by_key(digest("key of a1")) is None
    assert await store.load_account("a2") is not None


async def test_a_delete_that_stopped_half_way_is_finished_by_the_next(
    store: Store, raw: Redis, key_prefix: str
) -> None:
    assert await make(store, "a1", "Ada")
    await stand_in_for_races(raw, store, "a1", 24.0)
    keys = store._names.account("a1")
    await raw.hset(keys.account, "deleting", "1")
    await raw.zrem(store._names.index.board(GAME), "a1")  # it got as far as one board
    assert await store.load_account("a1") is None
    assert await store.account_by_name(digest("ada")) is None
    half = await store.account_by_key(digest("key of a1"))
    assert half is not None
    assert half.deleting

    await store.delete_account("a1")

    assert await keys_under(raw, key_prefix) == set()
    await store.delete_account("a1")  # nothing left to do


async def test_a_key_index_without_its_account_is_dropped(store: Store, raw: Redis) -> None:
    index = store._names.index.key(digest("lost"))
    await raw.set(index, "gone")
    assert await store.account_by_key(digest("lost")) is None
    assert await raw.exists(index) == 0


async def test_ratings_are_read_per_account(store: Store, raw: Redis) -> None:
    await raw.hset(store._names.account("a1").ratings, GAME, msgpack.packb([27.5, 3.0, 4]))
    assert await store.account_ratings("a1") == {GAME: StoredRating(27.5, 3.0, 4)}
    both = await store.ratings_of(["a1", "a2"])
    assert both == {"a1": {GAME: StoredRating(27.5, 3.0, 4)}, "a2": {}}


async def test_history_pages_go_on_from_the_cursor(store: Store, raw: Redis) -> None:
    history = store._names.account("a1").history
    await raw.rpush(history, *[f"entry {n}".encode() for n in range(5)])
    first = await store.history_page("a1", 0, 2)
    assert (first.entries, first.next_before) == ([b"entry 0", b"entry 1"], 2)
    last = await store.history_page("a1", 4, 2)
    assert (last.entries, last.next_before) == ([b"entry 4"], None)
    empty = await store.history_page("a2", 0, 2)
    assert (empty.entries, empty.next_before) == ([], None)


async def test_a_filtered_history_page_reads_on_past_other_games(store: Store, raw: Redis) -> None:
    history = store._names.account("a1").history
    entries = [b"other"] * 150 + [b"mine 1", b"other", b"mine 2", b"mine 3"]
    await raw.rpush(history, *entries)
    page = await store.history_page("a1", 0, 2, keep=lambda entry: entry.startswith(b"mine"))
    assert (page.entries, page.next_before) == ([b"mine 1", b"mine 2"], 153)
    rest = await store.history_page("a1", 153, 2, keep=lambda entry: entry.startswith(b"mine"))
    assert (rest.entries, rest.next_before) == ([b"mine 3"], None)


async def test_a_filtered_page_looks_through_a_bounded_number_of_entries(
    store: Store, raw: Redis
) -> None:
    history = store._names.account("a1").history
    await raw.rpush(history, *([b"other"] * 1100), b"mine")
    page = await store.history_page("a1", 0, 5, keep=lambda entry: entry == b"mine")
    assert (page.entries, page.next_before) == ([], 1000)
    rest = await store.history_page("a1", 1000, 5, keep=lambda entry: entry == b"mine")
    assert (rest.entries, rest.next_before) == ([b"mine"], None)


async def test_the_rating_board_lists_the_best_first_with_names(store: Store, raw: Redis) -> None:
    for number, score in enumerate([10.0, 30.0, 20.0]):
        assert await make(store, f"a{number}", f"Player{number}")
        await raw.hset(
            store._names.account(f"a{number}").ratings,
            GAME,
            msgpack.packb([score + 6, 2.0, 9]),
        )
        await raw.zadd(store._names.index.board(GAME), {f"a{number}": score})
    lines, total = await store.rating_board(GAME, 0, 2)
    assert total == 3
    assert [(line.place, line.name) for line in lines] == [(1, "Player1"), (2, "Player2")]
    assert lines[0].rating == StoredRating(36.0, 2.0, 9)
    rest, _ = await store.rating_board(GAME, 2, 2)
    assert [(line.place, line.name) for line in rest] == [(3, "Player0")]


async def test_the_deal_board_lists_the_fastest_first(store: Store, raw: Redis) -> None:
    for number, elapsed_ms in enumerate([90_000, 60_000]):
        assert await make(store, f"a{number}", f"Player{number}")
        best = store._names.account(f"a{number}").best
        await raw.hset(best, f"{GAME}:17", msgpack.packb([elapsed_ms, 1_000 + number]))
        await raw.zadd(store._names.index.deal(GAME, 17), {f"a{number}": elapsed_ms})
    lines, total = await store.deal_board(GAME, 17, 0, 10)
    assert total == 2
    shown = [(line.place, line.name, line.elapsed_ms, line.at_ms) for line in lines]
    assert shown == [(1, "Player1", 60_000, 1_001), (2, "Player0", 90_000, 1_000)]
    assert await store.best_times("a1") == {f"{GAME}:17": (60_000, 1_001)}


async def test_of_several_creations_of_one_name_at_once_one_wins(
    store: Store, raw: Redis, key_prefix: str
) -> None:
    made = await asyncio.gather(*(make(store, f"a{n}", "Ada") for n in range(6)))
    assert sorted(made) == [False] * 5 + [True]
    winner = f"a{made.index(True)}"
    found = await store.account_by_name(digest("ada"))
    assert found is not None
    assert found.account_id == winner
    accounts = {key for key in await keys_under(raw, key_prefix) if key.endswith(":account")}
    assert accounts == {store._names.account(winner).account}
