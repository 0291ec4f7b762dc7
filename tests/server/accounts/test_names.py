"""Account names: the rules a new name must pass and the key that makes two names one."""

from __future__ import annotations

import hashlib

import pytest

from server.accounts.names import BadName, account_name, name_digest, name_key

CYRILLIC_A = "\u0410"
FULLWIDTH_ADA = "\uff21\uff44\uff41"


@pytest.mark.parametrize("other", ["ADA", "ada", "aDa", f"{CYRILLIC_A}da", FULLWIDTH_ADA])
def test_names_that_look_like_ada_have_its_key(other: str) -> None:
    assert name_key(other) == name_key("Ada")


@pytest.mark.parametrize(
    ("latin", "cyrillic"),
    [("Ape", "\u0410\u0440\u0435"), ("BOB", "\u0412\u041e\u0412"), ("cop", "\u0441\u043e\u0440")],
)
def test_a_name_in_cyrillic_letters_that_look_latin_collides(latin: str, cyrillic: str) -> None:
    assert account_name(cyrillic) == cyrillic  # one script: allowed on its own
    assert name_key(cyrillic) == name_key(latin)


def test_digits_and_letters_that_look_alike_collide() -> None:
    assert name_key("B0b") == name_key("Bob")
    assert name_key("Ian") == name_key("lan")


def test_different_names_have_different_keys() -> None:
    assert name_key("Ada") != name_key("Ado")
    assert name_key("Ada Lovelace") != name_key("Ada")


def test_the_digest_is_the_sha256_of_the_key() -> None:
    assert name_digest("ADA") == hashlib.sha256(b"ada").hexdigest()


def test_a_name_is_kept_in_its_nfkc_form() -> None:
    assert account_name(FULLWIDTH_ADA) == "Ada"
    assert account_name("Ada Lovelace") == "Ada Lovelace"
    assert account_name("Zoë_2.0") == "Zoë_2.0"


@pytest.mark.parametrize(
    "name", ["Ada", "a" * 20, "Мария", "たろう", "山田たろう", "Jürgen", "abc"]
)
def test_good_names_pass(name: str) -> None:
    assert account_name(name) == name


@pytest.mark.parametrize(("name", "length"), [("ab", 2), ("a" * 21, 21), ("ｱ", 1)])
def test_a_name_has_3_to_20_characters(name: str, length: int) -> None:
    with pytest.raises(BadName, match=f"3 to 20 characters \\(this one has {length}\\)"):
        account_name(name)


def test_length_counts_after_nfkc() -> None:
    with pytest.raises(BadName, match="this one has 21"):
        account_name("\u3392" * 7)  # a square "MHz" is three letters after NFKC


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        (f"{CYRILLIC_A}da", "mixes Cyrillic and Latin"),
        ("\u0391laska", "mixes Greek and Latin"),
        ("Ada!", "'!' \\(U\\+0021\\) is not allowed"),
        ("Ada\u200bx", "U\\+200B is not allowed"),
        ("Ada  Lovelace", "a space may only stand alone"),
        ("Ada--L", "'-' \\(U\\+002D\\) may only stand alone"),
        ("_Ada", "'_' \\(U\\+005F\\) may only stand alone"),
        ("Ada.", "cannot end with '.'"),
        ("\u0301Ada", "must follow a letter"),
    ],
)
def test_a_bad_name_is_refused_saying_which_rule(name: str, rule: str) -> None:
    with pytest.raises(BadName, match=rule):
        account_name(name)


def test_name_key_takes_any_text() -> None:
    """A guest's name is keyed without the account rules."""
    assert name_key("x!") == "x!"
    assert name_key("") == ""
