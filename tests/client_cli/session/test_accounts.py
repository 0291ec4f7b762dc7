"""The accounts file: one per machine, keyed by server, owner-only, replaced atomically."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from client_cli.session import accounts
from client_cli.session.accounts import AccountFileError, Book, KeptAccount, UnknownAccount

HERE = "ws://127.0.0.1:8765"
THERE = "wss://race.example"
ADA = KeptAccount(HERE, "Ada", "a" * 32)
BOB = KeptAccount(HERE, "Bob", "b" * 32)
CY = KeptAccount(THERE, "Cy", "c" * 32)


def test_the_file_lives_in_the_state_folder() -> None:
    assert accounts.accounts_path({"XDG_STATE_HOME": "/s"}) == Path("/s/solrace/accounts.json")
    assert accounts.accounts_path({}) == Path.home() / ".local/state/solrace/accounts.json"


def test_the_last_kept_account_is_in_use_until_another_is_picked() -> None:
    book = Book().keep(ADA).keep(BOB).keep(CY)
    assert book.current(HERE) == BOB and book.current(THERE) == CY
    assert book.current("ws://elsewhere:1") is None
    assert book.use(ADA).current(HERE) == ADA
    assert book.on(HERE + "/") == [ADA, BOB]


def test_names_are_found_whatever_their_case_and_width() -> None:
    book = Book().keep(ADA)
    assert book.find(HERE, "ADA") == ADA
    assert book.find(HERE, "\uff21da") == ADA  # a fullwidth A
    assert book.find(HERE, "Bob") is None and book.find(THERE, "Ada") is None


def test_an_account_is_chosen_by_name_or_is_the_one_in_use() -> None:
    book = Book().keep(ADA).keep(BOB)
    assert book.chosen(HERE, None) == BOB and book.chosen(HERE, "ada") == ADA
    assert book.chosen(THERE, None) is None
    with pytest.raises(UnknownAccount, match=r"no account Cy is kept for .* \(kept: Ada, Bob\)"):
        book.chosen(HERE, "Cy")
    with pytest.raises(UnknownAccount, match=r"\(kept: none\)"):
        book.chosen(THERE, "Ada")


def test_keeping_a_key_again_replaces_it_and_renames_follow_the_server() -> None:
    book = Book().keep(ADA).keep(BOB).keep(KeptAccount(HERE, "Ada", ADA.key))
    assert book.on(HERE) == [BOB, ADA] and book.current(HERE) == ADA
    renamed = book.renamed(ADA, "Adele")
    assert renamed.find(HERE, "Adele") == KeptAccount(HERE, "Adele", ADA.key)
    assert renamed.find(HERE, "Ada") is None


def test_forgetting_the_account_in_use_falls_back_to_the_last_kept() -> None:
    book = Book().keep(ADA).keep(BOB).use(ADA).without(ADA)
    assert book.on(HERE) == [BOB] and book.current(HERE) == BOB
    assert book.without(BOB).current(HERE) is None


def test_save_and_load_round_trip_readable_by_the_owner_alone(tmp_path: Path) -> None:
    path = tmp_path / "state" / "solrace" / "accounts.json"
    book = Book().keep(ADA).keep(CY).keep(BOB).use(ADA)
    accounts.save(path, book)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert accounts.load(path) == book
    assert [p.name for p in path.parent.iterdir()] == ["accounts.json"]


def test_no_file_is_an_empty_book_and_a_bad_file_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "accounts.json"
    assert accounts.load(path) == Book()
    path.write_text('{"accounts": [{"server": "ws://h:1"}]}', encoding="utf-8")
    with pytest.raises(AccountFileError, match="left as it is"):
        accounts.load(path)
    path.write_text("not json", encoding="utf-8")
    with pytest.raises(AccountFileError, match="not an accounts file"):
        accounts.load(path)
    assert path.read_text(encoding="utf-8") == "not json"


def test_a_write_that_fails_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "accounts.json"
    accounts.save(path, Book().keep(ADA))
    before = path.read_bytes()

    def failing_replace(source: str, target: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(AccountFileError, match="No space left on device"):
        accounts.save(path, Book().keep(ADA).keep(BOB))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["accounts.json"]


def test_a_file_that_cannot_be_read_says_where_it_is(tmp_path: Path) -> None:
    path = tmp_path / "accounts.json"
    path.mkdir()
    with pytest.raises(AccountFileError, match=str(path)):
        accounts.load(path)
