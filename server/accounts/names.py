"""Account names: which names are allowed, and the key that says two names are one.

Theory of operation. A name is kept as its NFKC form, so ``Ada`` in fullwidth letters
is stored, shown and compared as ``Ada``. It must be 3 to 20 characters long, made of
letters and digits (with the combining marks that follow a letter), with single
``-``, ``_``, ``.`` or spaces between them, and written in one script (UTS #39
"highly restrictive": Latin may go with Han and kana, Han and Bopomofo, or Han and
Hangul; Common and Inherited characters go with anything). Mixing scripts is how
``Ada`` with a Cyrillic A (U+0410) passes for ``Ada``, so it is refused outright.

Two names are the same account name when their name keys are equal. The key is
the UTS #39 skeleton of the casefolded name, taken once before the casefold as
well: Unicode's confusables list has some lookalikes only as capitals (the
Cyrillic capitals Ve, En and Ka look like Latin B, H and K, their small letters like
nothing Latin), so folding case first would lose them. ``Ada``,
``ADA``, ``ada`` and the Cyrillic-A ``Ada`` all have the key ``ada``; so does ``Ada``
written in Cyrillic letters throughout (which passes the script rule). The index
stores the sha256 hex of the key (`name_digest`), so its Redis key names stay ASCII.

The confusables are Unicode's own ``confusables.txt`` (UTS #39 data, Unicode License
V3, in ``data/``); each character's script comes from the ``confusable-homoglyphs``
package, which ships Unicode's Scripts.txt as data. Its confusables table lists
lookalikes both ways, without the prototype a skeleton maps to, hence the file.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from importlib import resources

from confusable_homoglyphs import categories

from protocol.limits import MAX_ACCOUNT_NAME_CHARS, MIN_ACCOUNT_NAME_CHARS

__all__ = ["BadName", "account_name", "name_digest", "name_key"]

SEPARATORS = frozenset("-_. ")
"""Allowed between letters and digits, one at a time."""
ANY_SCRIPT = frozenset({"COMMON", "INHERITED"})
SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""The sets of scripts one name may mix (UTS #39, highly restrictive)."""


class BadName(ValueError):
    """The name breaks a rule; the message says which, in words for the player."""


def account_name(text: str) -> str:
    """The name as an account keeps it (NFKC), or `BadName` saying which rule it breaks."""
    name = unicodedata.normalize("NFKC", text)
    length = len(name)
    if not MIN_ACCOUNT_NAME_CHARS <= length <= MAX_ACCOUNT_NAME_CHARS:
        raise BadName(
            f"a name has {MIN_ACCOUNT_NAME_CHARS} to {MAX_ACCOUNT_NAME_CHARS} characters"
            f" (this one has {length})"
        )
    _check_characters(name)
    _check_scripts(name)
    return name


def name_key(text: str) -> str:
    """What `text` is compared by: equal keys mean names that look alike.

    Defined for any text (a guest's name is checked against the accounts' keys
    without being held to the account rules).
    """
    name = unicodedata.normalize("NFKC", text)
    return _skeleton(_skeleton(name).casefold())


def name_digest(text: str) -> str:
    """The sha256 hex of `name_key(text)`: the name index's key (server.store._keys)."""
    return hashlib.sha256(name_key(text).encode()).hexdigest()


def _check_characters(name: str) -> None:
    previous = ""
    for char in name:
        if char in SEPARATORS:
            if not previous or previous in SEPARATORS:
                raise BadName(f"{_shown(char)} may only stand alone between letters or digits")
        elif _is_mark(char):
            if not previous or previous in SEPARATORS:
                raise BadName(f"{_shown(char)} must follow a letter")
        elif not _is_letter_or_digit(char):
            raise BadName(
                f"{_shown(char)} is not allowed: use letters and digits, with single"
                " - _ . or spaces between them"
            )
        previous = char
    if previous in SEPARATORS:
        raise BadName(f"a name cannot end with {_shown(previous)}")


def _check_scripts(name: str) -> None:
    scripts = {str(categories.alias(char)) for char in name} - ANY_SCRIPT
    if len(scripts) <= 1 or any(scripts <= mix for mix in SCRIPT_MIXES):
        return
    listed = " and ".join(sorted(script.title() for script in scripts))
    raise BadName(f"a name is written in one script; this one mixes {listed}")


def _is_letter_or_digit(char: str) -> bool:
    category = unicodedata.category(char)
    return category.startswith("L") or category == "Nd"


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def _shown(char: str) -> str:
    """A character as an error message names it: visible, with its code point."""
    if char == " ":
        return "a space"
    glyph = char if char.isprintable() else ""
    return f"{glyph!r} (U+{ord(char):04X})" if glyph else f"U+{ord(char):04X}"


def _skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, each character by its prototype, NFD again."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(prototypes.get(char, char) for char in decomposed)
    return unicodedata.normalize("NFD", mapped)


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt as source character -> prototype, read on first use."""
    text = resources.files("server.accounts").joinpath("data/confusables.txt").read_text("utf-8")
    prototypes: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = fields[0].strip(), fields[1].split()
        prototypes[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target)
    return prototypes
